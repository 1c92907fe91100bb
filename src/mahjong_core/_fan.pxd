# C-level entry point of the fan evaluator, for the round engine: the arguments of
# `_fan.evaluate` as C data; returns 0 or an error code (the engine only passes legal hands).
from libc.stdint cimport uint8_t, uint16_t, uint32_t

# flag bits (scoring.FLAGS), option bits and meld codes of the evaluator's calling convention
cdef enum:
    F_SELF_DRAWN = 1
    F_LAST_TILE = 2
    F_KONG_REPLACEMENT = 4
    F_FLOWER_REPLACEMENT = 8
    F_ROBBING_KONG = 16
    F_LAST_OF_KIND = 32
    F_READY_DECLARED = 64
    F_READY_CONCEALED = 128
    F_HEAVENLY = 256
    F_EARTHLY = 512
    F_HUMANLY = 1024
    F_HEAVENLY_READY = 2048
    F_ALL = 4095

    O_CAISHEN_ENABLED = 1
    O_CAISHEN_USED_AS_WILD = 2
    O_LITERAL_FIRST_TURN = 4
    O_BLOOM_LAST_TILE = 8
    O_BLOOM_KONGS_ONLY = 16
    O_CHECK_FLAGS = 32          # FlagError for contradicting flags (scoring.score / score_batch set it)
    O_ALL = 63

    M_CHI = 0
    M_PON = 1
    M_KONG = 2
    M_CKONG = 3
    M_NONE = 255

cdef int fan_evaluate(int rs, const uint8_t* concealed, int win, const uint8_t* melds, int n_rows,
                      uint32_t flags, uint32_t flowers, int seat, int rnd, uint32_t options,
                      uint16_t* out, int* totals) noexcept nogil
cdef int fan_count_of(int rs) noexcept nogil
