# Included by _round.pyx after _round_search.pxi.  The engine side of the information-set MCTS bot
# (mahjong_core.families.mahjong.ismcts_bot): single-observer ISMCTS (Cowling, Powley and
# Whitehouse 2012) for one seat, on the compiled round.
#
# Each iteration samples a world of the seat (_determinize of _round_search.pxi: the round as the
# seat sees it, every tile it cannot see dealt again), then walks down a tree of the seat's own
# decisions in that world: at a node it picks among the actions legal in this world by UCB, where
# an action's count of chances is how often it was legal when its node was visited (its
# "availability"), not the node's visits -- an action that a world rarely offers is not punished
# for the worlds that did not offer it.  The other seats play the greedy bot between the seat's
# decisions.  At the first node with an action never tried there that this world offers, that
# action is tried (one new edge per iteration), then every seat plays the greedy bot to the end,
# and the outcome for the seat (+1 it won, -1 it paid, 0 otherwise, or 1 / 0 for wins only) is
# added to every edge of the path.
#
# A node is what the seat knows at a decision, coarsened: the path of its own actions from the
# root, the phase and the tile in question (the tile it drew on its turn, the tile offered in a
# claim window).  What the opponents did in between is not in the key (in a two-player round it is
# one discard that the seat could not claim): the tree would branch too thinly for the few
# thousand iterations of a decision.  A win is always taken (nothing scores more), and a decision
# with one legal action is no node.  Options: the root may be restricted to some of the legal
# actions (the caller's candidates), and nodes below the root may widen progressively (the greedy
# bot's action first, another only after some visits per action tried: see _is_walk).
#
# The walk and the play-out run without the GIL (_is_walk); the sampling of the world holds it
# (the sampler's functions are GIL functions).

from libc.math cimport sqrt, log
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC


ctypedef struct IsNode:
    int key               # _is_key of the decision
    int next              # the next node under the same edge (-1: none)
    int first_edge        # the node's first edge (-1: none yet)

ctypedef struct IsEdge:
    int action
    int next              # the next edge of the same node (-1: none)
    int child             # the first node reached through this edge (-1: none yet)
    int visits            # iterations through this edge
    int avail             # visits of its node in worlds where its action was legal
    double total          # the sum of the outcomes of those iterations

ctypedef struct IsTree:
    IsNode* nodes
    IsEdge* edges
    int n_nodes, cap_nodes, n_edges, cap_edges


cdef inline int _is_key(RoundCore r, int seat) noexcept nogil:
    """The observation that tells the seat's decision nodes apart (see the file's comment)."""
    cdef int t = -1
    if r.phase == PH_TURN:
        t = r.drawn
    elif r.phase == PH_CLAIM or r.phase == PH_ROB:
        t = r.claim_tile
    return r.phase * 64 + t + 1


cdef int _is_new_node(IsTree* tr, int key) except -1 nogil:
    cdef IsNode* p
    if tr.n_nodes == tr.cap_nodes:
        p = <IsNode*> realloc(tr.nodes, 2 * tr.cap_nodes * sizeof(IsNode))
        if p == NULL:  # pragma: no cover - out of memory
            with gil:
                raise MemoryError("ismcts tree")
        tr.nodes = p
        tr.cap_nodes *= 2
    tr.nodes[tr.n_nodes].key = key
    tr.nodes[tr.n_nodes].next = -1
    tr.nodes[tr.n_nodes].first_edge = -1
    tr.n_nodes += 1
    return tr.n_nodes - 1


cdef int _is_new_edge(IsTree* tr, int node, int action) except -1 nogil:
    """A new edge of ``node`` (first in its list), available once."""
    cdef IsEdge* p
    cdef IsEdge* e
    if tr.n_edges == tr.cap_edges:
        p = <IsEdge*> realloc(tr.edges, 2 * tr.cap_edges * sizeof(IsEdge))
        if p == NULL:  # pragma: no cover - out of memory
            with gil:
                raise MemoryError("ismcts tree")
        tr.edges = p
        tr.cap_edges *= 2
    e = &tr.edges[tr.n_edges]
    e.action = action
    e.next = tr.nodes[node].first_edge
    e.child = -1
    e.visits = 0
    e.avail = 1
    e.total = 0.0
    tr.nodes[node].first_edge = tr.n_edges
    tr.n_edges += 1
    return tr.n_edges - 1


cdef int _is_child(IsTree* tr, int edge, int key) except -1 nogil:
    """The node under ``edge`` with ``key``, made if there is none."""
    cdef int n = tr.edges[edge].child, m
    while n >= 0:
        if tr.nodes[n].key == key:
            return n
        n = tr.nodes[n].next
    m = _is_new_node(tr, key)
    tr.nodes[m].next = tr.edges[edge].child
    tr.edges[edge].child = m
    return m


cdef int _is_advance(RoundCore r, int seat, Py_ssize_t* steps) except -1 nogil:
    """The other seats play the greedy bot, and the seat takes a win or its only action, until
    the seat has a decision (returns 1) or the round is over (returns 0)."""
    cdef int s, i, n
    while r.phase != PH_OVER:
        s = _first_to_act(r)
        if s == seat:
            n = _legal(r, seat)
            if n > 1 and not _has(r, seat, A_WIN):
                return 1
            i = A_WIN if _has(r, seat, A_WIN) else r.opts[seat][0]
        else:
            i = _bot_greedy(r, s)
        if i < 0:  # pragma: no cover - a flow bug
            with gil:
                raise RuntimeError(f"no action for seat {s}")
        _step(r, s, i)
        steps[0] += 1
    return 0


cdef int _is_walk(IsTree* tr, RoundCore r, int seat, mj_bitgen_t* bg, double c, int widen,
                  const uint64_t* root_set, const double* values, int* path, Py_ssize_t* steps) except -1 nogil:
    """One iteration in the world ``r`` (the seat to decide at the root): selection, expansion of
    one edge, the greedy play-out, and the backup of the outcome along the path.  ``widen``: 0,
    every action legal here is tried once before UCB chooses; k > 0, below the root the greedy
    bot's action is tried first, and one more untried action only when the node's visits reach k
    times the actions it has tried (progressive widening: a node visited a few times plays like
    the play-out's policy instead of trying its actions at random).  ``root_set``: the actions the
    root may choose among (a two-word action set)."""
    cdef int node = 0, n, k, a, e, best, depth = 0, n_new, n_tried, node_visits, g
    cdef int fresh[A_SIZE]
    cdef double score, best_score, v
    cdef IsEdge* ed
    cdef int where[A_SIZE]        # the edge of each legal action at this node (-1: none yet)
    while True:
        n = _legal(r, seat)
        for k in range(n):
            # at the root, an action outside root_set is as if never legal
            where[k] = -1 if node or (root_set[r.opts[seat][k] >> 6] >> (r.opts[seat][k] & 63)) & 1 else -2
        e = tr.nodes[node].first_edge
        n_tried = node_visits = 0
        while e >= 0:
            a = tr.edges[e].action
            n_tried += 1
            node_visits += tr.edges[e].visits
            for k in range(n):
                if r.opts[seat][k] == a:
                    where[k] = e
                    tr.edges[e].avail += 1
                    break
            e = tr.edges[e].next
        n_new = 0
        for k in range(n):
            if where[k] == -1:
                fresh[n_new] = r.opts[seat][k]
                n_new += 1
        a = -1
        if n_new and (widen == 0 or node == 0):
            # expansion: an action never tried here, at random
            a = fresh[<int> _interval(bg, <uint64_t> (n_new - 1))]
        elif n_new:
            g = _bot_greedy(r, seat)
            for k in range(n_new):
                if fresh[k] == g:
                    a = g           # the play-out's own choice first
                    break
            if a < 0 and node_visits >= widen * n_tried:
                a = fresh[<int> _interval(bg, <uint64_t> (n_new - 1))]
        if a >= 0:
            e = _is_new_edge(tr, node, a)
            path[depth] = e
            depth += 1
            _step(r, seat, a)
            steps[0] += 1
            _is_advance(r, seat, steps)
            break
        best = -1
        best_score = -1e300
        for k in range(n):
            if where[k] < 0:
                continue                # not tried yet (widening)
            ed = &tr.edges[where[k]]
            score = ed.total / ed.visits + c * sqrt(log(<double> ed.avail) / ed.visits)
            if score > best_score:
                best_score = score
                best = where[k]
        path[depth] = best
        depth += 1
        _step(r, seat, tr.edges[best].action)
        steps[0] += 1
        if not _is_advance(r, seat, steps):
            break
        node = _is_child(tr, best, _is_key(r, seat))
        if depth >= MAX_POOL * 2:  # pragma: no cover - a round has fewer decisions of one seat
            with gil:
                raise RuntimeError("ismcts path too long")
    # the play-out: every seat the greedy bot (the seat included)
    while r.phase != PH_OVER:
        k = _first_to_act(r)
        a = _bot_greedy(r, k)
        if a < 0:  # pragma: no cover - a flow bug
            with gil:
                raise RuntimeError(f"no action for seat {k}")
        _step(r, k, a)
        steps[0] += 1
    v = values[_outcome(r, seat)]
    for k in range(depth):
        tr.edges[path[k]].visits += 1
        tr.edges[path[k]].total += v
    return 0


def ismcts_search(core, int seat, int iterations, Py_ssize_t max_steps, double c, bit_generator,
                  bint history=True, str objective="net", double max_ms=0.0, int widen=0, root_actions=None):
    """Single-observer information-set MCTS for ``seat`` of ``core`` (a :class:`RoundCore` where the
    seat is to act with at least two legal actions), see the file's comment.  Stops after
    ``iterations`` iterations, or at the first iteration that brings the steps to ``max_steps``,
    or (``max_ms`` > 0) after ``max_ms`` milliseconds of the process's CPU time (checked every 8
    iterations).  ``c``: the UCB exploration constant; ``widen``: 0, or the visits per tried action
    a node below the root needs before it tries another (see :func:`_is_walk`); ``root_actions``:
    None, or the legal actions (at least two) the root chooses among; ``bit_generator``: a NumPy
    BitGenerator the worlds and the expansions draw from; ``history``: as in
    :func:`search_outcomes`; ``objective``: ``"net"`` (+1 won, -1 paid, 0 otherwise) or ``"win"``.
    Returns ``(actions, visits, means, iterations, steps, nodes, edges)``: the root's edges (the
    legal actions tried, ascending), their visits and mean outcomes, the iterations and engine
    steps the search took (with ``history``, each world's sampling counts one step per greedy
    turn it replays for an opponent's hand), and the tree's nodes and edges."""
    cdef RoundCore src = <RoundCore?> core
    cdef double values[4]
    cdef int it = 0, n_legal, e, k, s, replayed = 0
    cdef Py_ssize_t steps = 0
    cdef int path[2 * MAX_POOL + 2]
    cdef clock_t t0 = clock()
    cdef clock_t limit = <clock_t> (max_ms * CLOCKS_PER_SEC / 1000.0)
    cdef IsTree tr
    if not 0 <= seat < src.P:
        raise ValueError(f"seat must be 0-{src.P - 1}, got {seat}")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    if not c >= 0:
        raise ValueError(f"c must be 0 or more, got {c}")
    if widen < 0:
        raise ValueError(f"widen must be 0 or more, got {widen}")
    if objective == "net":
        values[0], values[1], values[2], values[3] = 0.0, 1.0, -1.0, 0.0
    elif objective == "win":
        values[0], values[1], values[2], values[3] = 0.0, 1.0, 0.0, 0.0
    else:
        raise ValueError(f"objective must be net or win, got {objective!r}")
    if _first_to_act(src) != seat and not (src.phase != PH_TURN and _is_pending(src, seat)):
        raise IllegalActionError(f"seat {seat} is not to act now")
    n_legal = _legal(src, seat)
    if n_legal < 2:
        raise ValueError(f"seat {seat} has {n_legal} legal action(s): nothing to search")
    cdef uint64_t root_set[2]
    root_set[0] = src.opts_set[seat][0]
    root_set[1] = src.opts_set[seat][1]
    if root_actions is not None:
        root_actions = list(root_actions)
        root_set[0] = root_set[1] = 0
        for a in root_actions:
            if not _legal_now(src, seat, a):
                raise IllegalActionError(f"root action {a} is not a legal action of seat {seat} now")
            _set_action(root_set, a)
        if len(set(root_actions)) < 2:
            raise ValueError(f"root_actions must hold at least two legal actions, got {list(root_actions)}")
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef RoundCore world = RoundCore.__new__(RoundCore)
    tr.cap_nodes = 1024
    tr.cap_edges = 1024
    tr.n_nodes = tr.n_edges = 0
    tr.nodes = <IsNode*> malloc(tr.cap_nodes * sizeof(IsNode))
    tr.edges = <IsEdge*> malloc(tr.cap_edges * sizeof(IsEdge))
    try:
        if tr.nodes == NULL or tr.edges == NULL:  # pragma: no cover - out of memory
            raise MemoryError("ismcts tree")
        _is_new_node(&tr, 0)
        # a world's sampling replays the greedy bot's discard choice for each opponent turn taken
        # (_deal_hidden_hand), about the work of an engine step each: counted as steps, so that the
        # step budget bounds the CPU time late in a round too, where play-outs are short and the
        # sampling is most of an iteration
        if history:
            for s in range(src.P):
                if s != seat:
                    replayed += min(_turns_taken(src, s), MAX_HISTORY)
        while it < iterations and steps < max_steps:
            _determinize(world, src, seat, bg, history)
            steps += replayed
            # the seat acts first in the world as in the round: the claims of the opponents who
            # answer before it are the world's (_reopen_window keeps the seat's place)
            with nogil:
                k = _is_advance_to_root(world, seat, &steps)
                if k:
                    _is_walk(&tr, world, seat, bg, c, widen, root_set, values, path, &steps)
            if not k:  # pragma: no cover - every seat asked answers before a window resolves
                raise RuntimeError("the seat lost its decision in a sampled world")
            it += 1
            if limit > 0 and it % 8 == 0 and clock() - t0 >= limit:
                break
        actions, visits, means = [], [], []
        e = tr.nodes[0].first_edge
        while e >= 0:
            actions.append(tr.edges[e].action)
            visits.append(tr.edges[e].visits)
            means.append(tr.edges[e].total / tr.edges[e].visits if tr.edges[e].visits else 0.0)
            e = tr.edges[e].next
        order = sorted(range(len(actions)), key=actions.__getitem__)
        return ([actions[k] for k in order], [visits[k] for k in order], [means[k] for k in order],
                it, steps, tr.n_nodes, tr.n_edges)
    finally:
        free(tr.nodes)
        free(tr.edges)


cdef int _is_advance_to_root(RoundCore r, int seat, Py_ssize_t* steps) except -1 nogil:
    """In a claim window of the world, the opponents pending before the seat answer (greedy) until
    the seat is first to act (a claim of theirs may close the window: then the iteration plays the
    round on from there with the seat deciding when it next has a choice -- rare, four players)."""
    cdef int s, i
    while r.phase != PH_OVER:
        s = _first_to_act(r)
        if s == seat:
            return 1
        i = _bot_greedy(r, s)
        if i < 0:  # pragma: no cover - a flow bug
            with gil:
                raise RuntimeError(f"no action for seat {s}")
        _step(r, s, i)
        steps[0] += 1
    return 0
