# Included by _round.pyx, before the events and views that use it.  Views and events are built per
# step in a server loop, so their ints come from a table of boxed ints (an INCREF, not a
# PyLong_FromLong call per tile) and their lists are made at their final size and filled in place.
from cpython.ref cimport PyObject
from cpython.list cimport PyList_New

cdef extern from "Python.h":
    void _incref "Py_INCREF"(PyObject* o) noexcept
    void _list_set "PyList_SET_ITEM"(object lst, Py_ssize_t i, PyObject* o) noexcept
    PyObject* _long_from "PyLong_FromLong"(long v) except NULL

cdef enum:
    N_BOXED = 256       # every tile, count, seat, die, wall size and fan minimum of a view is below

# the boxed ints 0..N_BOXED-1: the list keeps them alive, the C table is read without a lookup
# (written once while the module is imported, read-only after: safe without the GIL as well)
cdef list _BOXED_INTS = list(range(N_BOXED))
cdef PyObject* _boxed[N_BOXED]
for _k in range(N_BOXED):
    _boxed[_k] = <PyObject*> _BOXED_INTS[_k]


cdef inline PyObject* _int_ref(long v) except NULL:
    """A new reference to the int ``v`` (from the table when it is in it)."""
    cdef PyObject* o
    if 0 <= v < N_BOXED:
        o = _boxed[v]
        _incref(o)
        return o
    return _long_from(v)


cdef inline object _int(long v):
    """The int ``v`` as an object (from the table when it is in it)."""
    if 0 <= v < N_BOXED:
        return <object> _boxed[v]
    return v


cdef list _u8_list(const uint8_t* p, Py_ssize_t n):
    """The n bytes at p as a list of ints."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i
    for i in range(n):
        _list_set(out, i, _int_ref(p[i]))
    return out
