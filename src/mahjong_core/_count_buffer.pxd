# Reading a count array from a Python object without a copy through NumPy: the fast path of every
# single-hand entry point (mahjong: 34 counts, long cards: 21).
from libc.stdint cimport uint8_t
from libc.string cimport memcpy
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_ND, PyBUF_FORMAT, PyBUF_C_CONTIGUOUS


cdef inline bint load_counts(object obj, uint8_t* out, Py_ssize_t n) except -1:
    """Copy n counts from a 1-d C-contiguous uint8 buffer of length n; False if obj is not one."""
    cdef Py_buffer view
    cdef bint ok
    try:
        PyObject_GetBuffer(obj, &view, PyBUF_ND | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
    except (BufferError, TypeError, ValueError):
        return False
    ok = (view.ndim == 1 and view.itemsize == 1 and view.format != NULL
          and (view.format[0] == b'B' or (view.format[0] == b'=' and view.format[1] == b'B'))
          and view.shape[0] == n)
    if ok:
        memcpy(out, view.buf, n)
    PyBuffer_Release(&view)
    return ok
