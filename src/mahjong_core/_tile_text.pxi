# Included by _fan.pyx.  Tile strings and meld strings read in C, for the per-call front
# (_fan_front.pxi).  Only the plain ASCII notation is read here -- digit runs with a suit letter
# m p s z f, honor letters E S W N C F P, blanks -- and only when it is valid: anything else
# (Chinese names, glyphs, a bad character, a dangling digit, a 0 ...) answers SCAN_OTHER, and the
# caller hands the whole call to the Python parser of mahjong_core.tiles, the one that decides
# every error and its message.  tests/hand/test_front_parity.py holds the two readings equal.

from cpython.unicode cimport (
    Py_UCS1, PyUnicode_KIND, PyUnicode_1BYTE_DATA, PyUnicode_1BYTE_KIND, PyUnicode_GET_LENGTH,
)

cdef enum:
    SCAN_OTHER = -1     # not a plain valid string: the Python parser reads it
    SCAN_CAP = 20       # most tiles read from one string (a hand holds at most 14 concealed tiles)

cdef signed char _LETTER_KIND[128]     # honor letter -> kind 27-33, else -1
cdef signed char _SUIT_BASE[128]       # suit letter -> first kind (m 0, p 9, s 18, z/f special), else -1
cdef bint _BLANK[128]                  # characters the Python parser skips as blanks (ASCII ones)
cdef uint8_t _Z_KIND[8]                # tenhou honor digit 1-7 -> kind (1z E ... 5z 白 6z 发 7z 中)

cdef enum:
    SUIT_Z = 100
    SUIT_F = 101


cdef _init_tile_text():
    cdef int i
    for i in range(128):
        _LETTER_KIND[i] = -1
        _SUIT_BASE[i] = -1
        _BLANK[i] = False
    for i, ch in enumerate("ESWNCFP"):
        _LETTER_KIND[ord(ch)] = 27 + i
    _SUIT_BASE[ord("m")] = 0
    _SUIT_BASE[ord("p")] = 9
    _SUIT_BASE[ord("s")] = 18
    _SUIT_BASE[ord("z")] = SUIT_Z
    _SUIT_BASE[ord("f")] = SUIT_F
    for ch in " \t\n\r\v\f":
        _BLANK[ord(ch)] = True
    for i, kind in enumerate((27, 28, 29, 30, 33, 32, 31)):
        _Z_KIND[i + 1] = kind


_init_tile_text()


cdef inline const Py_UCS1* _latin1(str text) noexcept:
    """The characters of `text` as bytes when it is stored one byte a character (every ASCII
    string is); NULL otherwise (it holds a character past U+00FF: not the plain notation)."""
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:
        return NULL
    return PyUnicode_1BYTE_DATA(text)


cdef int _scan_tiles(str text, Py_ssize_t start, int* out, int cap, bint flowers) noexcept:
    """The tile indices of text[start:] into out[] in the order written (at most `cap`, flowers
    only if `flowers`); their number, or SCAN_OTHER."""
    cdef const Py_UCS1* chars = _latin1(text)
    if chars == NULL:
        return SCAN_OTHER
    return _scan_chars(chars, start, PyUnicode_GET_LENGTH(text), out, cap, flowers)


cdef int _scan_chars(const Py_UCS1* text, Py_ssize_t start, Py_ssize_t n, int* out, int cap,
                     bint flowers) noexcept:
    """_scan_tiles of the one-byte characters text[start:n]."""
    cdef Py_ssize_t i
    cdef Py_UCS1 ch
    cdef int k = 0, n_pend = 0, j, d, base
    cdef uint8_t pend[SCAN_CAP]
    for i in range(start, n):
        ch = text[i]
        if ch >= 128:
            return SCAN_OTHER
        if u'0' <= ch <= u'9':
            if n_pend == SCAN_CAP:
                return SCAN_OTHER
            pend[n_pend] = <uint8_t> (<int> ch - 48)
            n_pend += 1
        elif _BLANK[ch]:
            continue      # blanks may stand anywhere, even between digits and their suit letter
        elif _SUIT_BASE[ch] >= 0:
            base = _SUIT_BASE[ch]
            if n_pend == 0 or k + n_pend > cap:
                return SCAN_OTHER
            for j in range(n_pend):
                d = pend[j]
                if base == SUIT_Z:
                    if not 1 <= d <= 7:
                        return SCAN_OTHER
                    out[k] = _Z_KIND[d]
                elif base == SUIT_F:
                    if not flowers or not 1 <= d <= 8:
                        return SCAN_OTHER
                    out[k] = 33 + d
                else:
                    if d == 0:
                        return SCAN_OTHER
                    out[k] = base + d - 1
                k += 1
            n_pend = 0
        elif _LETTER_KIND[ch] >= 0:
            if n_pend or k == cap:
                return SCAN_OTHER
            out[k] = _LETTER_KIND[ch]
            k += 1
        else:
            return SCAN_OTHER
    return SCAN_OTHER if n_pend else k


cdef int _text_counts(str text, uint8_t* counts) noexcept:
    """The 34 counts of a plain hand string (at most 4 copies of a kind, no flower): 0, or
    SCAN_OTHER."""
    cdef int tiles[SCAN_CAP]
    cdef int n = _scan_tiles(text, 0, tiles, SCAN_CAP, False), j
    if n < 0:
        return SCAN_OTHER
    memset(counts, 0, N_KINDS)
    for j in range(n):
        counts[tiles[j]] += 1
        if counts[tiles[j]] > 4:
            return SCAN_OTHER
    return 0


cdef int _meld_kind(str word, Py_ssize_t start, Py_ssize_t end) noexcept:
    """MELD_* code of text[start:end] read case-insensitively as chi / pon / kong / ckong, or -1."""
    cdef const Py_UCS1* chars = _latin1(word)
    if chars == NULL:
        return -1
    return _meld_kind_chars(chars, start, end)


cdef int _meld_kind_chars(const Py_UCS1* word, Py_ssize_t start, Py_ssize_t end) noexcept:
    """_meld_kind of the one-byte characters word[start:end]."""
    cdef char low[6]
    cdef Py_ssize_t i
    cdef Py_UCS1 ch
    if not 3 <= end - start <= 5:
        return -1
    for i in range(start, end):
        ch = word[i]
        if u'A' <= ch <= u'Z':
            ch = <Py_UCS1> (<int> ch + 32)
        if not u'a' <= ch <= u'z':
            return -1
        low[i - start] = <char> (<int> ch)
    low[end - start] = 0
    if strcmp(low, b"chi") == 0:
        return M_CHI
    if strcmp(low, b"pon") == 0:
        return M_PON
    if strcmp(low, b"kong") == 0:
        return M_KONG
    if strcmp(low, b"ckong") == 0:
        return M_CKONG
    return -1


cdef int _group_first(int kind, int* tiles, int n) noexcept:
    """The first tile of a group of `kind` made of tiles[0:n] (sorted here), or -1 when they do not
    form one."""
    cdef int a, b, c
    if kind == M_CHI:
        if n != 3:
            return -1
        a, b, c = tiles[0], tiles[1], tiles[2]
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
        if a > b:
            a, b = b, a
        return a if a < 27 and a % 9 <= 6 and b == a + 1 and c == a + 2 else -1
    if n != (3 if kind == M_PON else 4):
        return -1
    for a in range(1, n):
        if tiles[a] != tiles[0]:
            return -1
    return tiles[0]


cdef inline int _group_char(Py_UCS1 ch, int base) noexcept:
    """The kind of one character of a group written in the canonical notation -- a digit 1-9 of the
    suit starting at `base`, or an honor letter when base < 0 -- or -1."""
    if base >= 0:
        return base + <int> ch - 49 if 49 <= ch <= 57 else -1
    return _LETTER_KIND[ch] if ch < 128 else -1


cdef int _canonical_meld(const Py_UCS1* s, Py_ssize_t n, uint8_t* row) noexcept:
    """A meld string exactly as format_tiles writes one -- "chi 123m", "pon 555p", "pon CCC",
    "kong EEEE", "ckong 9999m": the kind in lower case, one blank, the tiles' digits and one suit
    letter, or honor letters -- as its row: 0, or SCAN_OTHER (then _text_meld reads it).  What it
    accepts, _text_meld reads the same way; it only reads the common form with fewer steps."""
    cdef int kind, size, p, base = -1, t, j
    cdef int tiles[4]
    if n >= 7 and s[0] == b'c' and s[1] == b'h' and s[2] == b'i' and s[3] == b' ':
        kind, size, p = M_CHI, 3, 4
    elif n >= 7 and s[0] == b'p' and s[1] == b'o' and s[2] == b'n' and s[3] == b' ':
        kind, size, p = M_PON, 3, 4
    elif n >= 9 and s[0] == b'k' and s[1] == b'o' and s[2] == b'n' and s[3] == b'g' and s[4] == b' ':
        kind, size, p = M_KONG, 4, 5
    elif (n >= 10 and s[0] == b'c' and s[1] == b'k' and s[2] == b'o' and s[3] == b'n' and s[4] == b'g'
          and s[5] == b' '):
        kind, size, p = M_CKONG, 4, 6
    else:
        return SCAN_OTHER
    if n - p == size + 1:
        if s[n - 1] == b'm':
            base = 0
        elif s[n - 1] == b'p':
            base = 9
        elif s[n - 1] == b's':
            base = 18
        else:
            return SCAN_OTHER
    elif n - p != size:
        return SCAN_OTHER
    for j in range(size):
        t = _group_char(s[p + j], base)
        if t < 0:
            return SCAN_OTHER
        tiles[j] = t
    t = _group_first(kind, tiles, size)
    if t < 0:
        return SCAN_OTHER
    row[0] = <uint8_t> kind
    row[1] = <uint8_t> t
    return 0


cdef int _text_meld(str text, uint8_t* row) noexcept:
    """A plain meld string ("pon CCC", "chi 123m", "kong EEEE", "ckong 9999m") as its row
    [kind, first tile]: 0, or SCAN_OTHER.  The kind is the word before the first blank, after the
    string's leading blanks, as the Python parser splits it."""
    cdef const Py_UCS1* chars = _latin1(text)
    cdef Py_ssize_t i = 0, n, word
    cdef Py_UCS1 ch
    cdef int kind, first, count
    cdef int tiles[SCAN_CAP]
    if chars == NULL:
        return SCAN_OTHER
    n = PyUnicode_GET_LENGTH(text)
    if _canonical_meld(chars, n, row) == 0:
        return 0
    while i < n:
        ch = chars[i]
        if ch >= 128 or not _BLANK[ch]:
            break
        i += 1
    word = i
    while i < n and chars[i] != 32:    # the first " "
        i += 1
    if i == n:
        return SCAN_OTHER
    kind = _meld_kind_chars(chars, word, i)
    if kind < 0:
        return SCAN_OTHER
    count = _scan_chars(chars, i + 1, n, tiles, 4, False)
    if count < 0:
        return SCAN_OTHER
    first = _group_first(kind, tiles, count)
    if first < 0:
        return SCAN_OTHER
    row[0] = <uint8_t> kind
    row[1] = <uint8_t> first
    return 0
