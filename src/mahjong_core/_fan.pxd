# C-level entry point of the fan evaluator, for the round engine: the arguments of
# `_fan.evaluate` as C data; returns 0 or an error code (the engine only passes legal hands).
from libc.stdint cimport uint8_t, uint16_t, uint32_t

# flag bits (F_*), option bits (O_*) and meld codes (M_*) of the calling convention: the
# generated _mahjong_constants.pxd
cdef int fan_evaluate(int rs, const uint8_t* concealed, int win, const uint8_t* melds, int n_rows,
                      uint32_t flags, uint32_t flowers, int seat, int rnd, uint32_t options,
                      uint16_t* out, int* totals) noexcept nogil
cdef int fan_count_of(int rs) noexcept nogil
