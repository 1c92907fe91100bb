# Included by _round.pyx.  NumPy's Generator algorithms on the generator's own bit stream (the
# seeded wall shuffle and the random bot's draws), equal to the NumPy calls on the same generator;
# the draws themselves (_interval, _bounded) are _bitgen.pxd's, shared with the long-card batch.

cdef void _shuffle_wall(mj_bitgen_t* bg, uint8_t* tiles, int n, int* dice, int* kong_dice,
                        int n_kong_dice) noexcept nogil:
    """Permute ``tiles`` in place and draw the dice: ``gen.permutation``, then
    ``gen.integers(1, 7, size=2)`` and ``gen.integers(1, 7, size=n_kong_dice)`` of a
    ``numpy.random.Generator`` on ``bg``."""
    cdef int i, j
    cdef uint8_t x
    for i in range(n - 1, 0, -1):
        j = <int> _interval(bg, <uint64_t> i)
        x = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = x
    for i in range(2):
        dice[i] = 1 + <int> _bounded(bg, 5)
    for i in range(n_kong_dice):
        kong_dice[i] = 1 + <int> _bounded(bg, 5)


def shuffle_tiles(tiles, bit_generator, int n_kong_dice):
    """``(tiles in drawing order, [die1, die2], kong dice)``: exactly
    ``gen.permutation(tiles)``, ``gen.integers(1, 7, size=2)`` and
    ``gen.integers(1, 7, size=n_kong_dice)`` of a ``numpy.random.Generator`` on ``bit_generator``,
    in that order (the tests compare with NumPy)."""
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef int n = len(tiles), i
    cdef uint8_t buf[MAX_TILES]
    cdef int dice[2]
    cdef int kong[N_KONG_DICE]
    if n > MAX_TILES:
        raise ValueError(f"at most {MAX_TILES} tiles")
    if not 0 <= n_kong_dice <= N_KONG_DICE:
        raise ValueError(f"at most {N_KONG_DICE} kong dice")
    for i in range(n):
        buf[i] = tiles[i]
    _shuffle_wall(bg, buf, n, dice, kong, n_kong_dice)
    return [buf[i] for i in range(n)], [dice[0], dice[1]], [kong[i] for i in range(n_kong_dice)]
