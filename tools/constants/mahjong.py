"""The constants of the mahjong family that the compiled core and the Python package share: the
one source.  ``tools/gen_constants.py`` writes them as ``src/mahjong_core/_mahjong_constants.pxd``
(C enums) and ``src/mahjong_core/mahjong_constants.h`` (static tables) for Cython, and as
``python/mahjong_core/families/mahjong/_constants.py`` for Python; a test checks both are fresh.

Pure data, no imports: each ``ENUMS`` entry is a group of integer codes with the C prefix the
kernels use, the Python prefix the package uses (``None``: the Python side has no such names)
and optionally a names tuple (code -> name) or a dict (name -> code) for the Python side.
"""

N_KINDS = 34
"""Tile kinds of a hand: 1-9 of three suits (0-26), winds E S W N (27-30), dragons C F P (31-33)."""

SCALARS = (
    ("N_KINDS", N_KINDS, "tile kinds of a hand"),
    ("MAX_TILES", 144, "tiles of the largest wall (the public ruleset's 136 and 8 flowers)"),
    ("MAX_POOL", 136, "discards of one seat, at most (every tile that is not a flower)"),
    ("N_KONG_DICE", N_KINDS, "kong dice pre-rolled per round: at most one kong per tile kind"),
    ("MAX_FANS", 128, "fans of a ruleset's table, at most: the length of a fan-count row (64 x FAN_WORDS)"),
)

# code -> short name of every tile id (34 kinds, then the 8 flowers 34-41)
TILE_SHORT_NAMES = tuple(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + [f"{r}f" for r in range(1, 9)]
)

ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The 13 terminals and honors of thirteen orphans."""

# knitted patterns (1.1): ranks 147 of suit a, 258 of suit b, 369 of suit c, for the six
# permutations (a, b, c) of the suits in itertools order
_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
KNITTED_PATTERNS = tuple(
    tuple(perm[i] * 9 + i + 3 * c for i in range(3) for c in range(3)) for perm in _PERMS
)
"""Kind indices of each of the six knitted patterns (9 tiles each)."""

C_TABLES = True
"""The orphan and knitted tables are also C arrays (``mahjong_constants.h``)."""
PY_TABLES = ("TILE_SHORT_NAMES", "ORPHAN_KINDS", "KNITTED_PATTERNS")
"""The tuples the Python module carries beside the codes."""

_A = dict(DISCARD=0, DISCARD_READY=N_KINDS, KONG_SELF=2 * N_KINDS)
_A.update(CHI_LOW=3 * N_KINDS, CHI_MID=3 * N_KINDS + 1, CHI_HIGH=3 * N_KINDS + 2)
_A.update(PON=3 * N_KINDS + 3, KONG_CLAIM=3 * N_KINDS + 4, WIN=3 * N_KINDS + 5,
          DECLARE_READY=3 * N_KINDS + 6, PASS=3 * N_KINDS + 7)

ENUMS = (
    dict(c="PH_", py="PH_", doc="phase of a round (the state machine's state)",
         members=("READY_WINDOW", "TURN", "CLAIM", "ROB", "OVER"),
         names=("PHASE_NAMES", ("ready_window", "turn", "claim", "rob", "over"))),
    dict(c="SRC_", py="SRC_", doc="where the tile on turn came from",
         members=("NONE", "HEAD", "KONG", "FLOWER"),
         names=("SRC_NAMES", ("none", "head", "kong", "flower"))),
    dict(c="FROM_", py=None, doc="where a drawn tile came from, in draw events",
         members=("HEAD", "TAIL", "DIE"),
         names=("FROM_NAMES", ("head", "tail", "die"))),
    dict(c="KONG_", py=None, doc="kind of a kong, in kong events",
         members=("CONCEALED", "ADDED", "EXPOSED"),
         names=("KONG_KINDS", ("concealed", "added", "exposed"))),
    dict(c="METHOD_", py="METHOD_", doc="how a hand is won",
         members=("SELF_DRAWN", "DISCARD", "ROBBING"),
         names=("WIN_METHODS", ("self_drawn", "discard", "robbing"))),
    dict(c="READY_", py=None, doc="报听 mode of the flow settings (2.7); Python reads the names",
         members=("NONE", "HEAVENLY_ONLY", "ANY_DISCARD"),
         names=("READY_MODES", ("none", "heavenly_only", "any_discard"))),
    dict(c="M_", py="MELD_", doc="meld code of the evaluator's meld rows",
         members=(("CHI", 0), ("PON", 1), ("KONG", 2), ("CKONG", 3), ("NONE", 255)),
         names=("MELD_NAMES", ("chi", "pon", "kong", "ckong")),
         by_name=("MELD_KINDS", {"chi": 0, "pon": 1, "kong": 2, "ckong": 3})),
    dict(c="FORM_", py="FORM_", doc="winning form of a reading",
         members=("STANDARD", "SEVEN_PAIRS", "THIRTEEN_ORPHANS", "HONORS_KNITTED", "KNITTED_STRAIGHT"),
         names=("FORM_NAMES", ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted",
                               "knitted_straight"))),
    dict(c="F_", py="FLAG_", doc="situational flag bits of the evaluator's calling convention",
         members=(("SELF_DRAWN", 1), ("LAST_TILE", 2), ("KONG_REPLACEMENT", 4), ("FLOWER_REPLACEMENT", 8),
                  ("ROBBING_KONG", 16), ("LAST_OF_KIND", 32), ("READY_DECLARED", 64),
                  ("READY_CONCEALED", 128), ("HEAVENLY", 256), ("EARTHLY", 512), ("HUMANLY", 1024),
                  ("HEAVENLY_READY", 2048), ("ALL", 4095)),
         by_name=("FLAGS", {"self_drawn": 1, "last_tile": 2, "kong_replacement": 4, "flower_replacement": 8,
                            "robbing_kong": 16, "last_of_kind": 32, "ready": 64, "ready_concealed": 128,
                            "heavenly": 256, "earthly": 512, "humanly": 1024, "heavenly_ready": 2048})),
    dict(c="O_", py="OPT_", doc="option bits of the evaluator's calling convention",
         members=(("CAISHEN_ENABLED", 1), ("CAISHEN_USED_AS_WILD", 2), ("LITERAL_FIRST_TURN", 4),
                  ("BLOOM_LAST_TILE", 8), ("BLOOM_KONGS_ONLY", 16),
                  ("CHECK_FLAGS", 32),   # refuse flags that contradict each other or the hand (FlagError)
                  ("ALL", 63))),
    dict(c="A_", py="A_", doc="action mask layout (mahjong_core.families.mahjong.actions)",
         members=tuple(_A.items()) + (("SIZE", 3 * N_KINDS + 8),)),
)
