# Marks src/mahjong_core as the Cython package `mahjong_core`, so that the compiled modules are
# named mahjong_core._hand / mahjong_core._fan / mahjong_core._round and can cimport each other's
# exported C functions (declared in their .pxd files).
