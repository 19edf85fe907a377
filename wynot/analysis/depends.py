"""Dependencies between changes, for predicted outcomes (WYNOT paper, section 6).

``a -> b`` means "a configuration that applies ``a`` without ``b`` cannot
build". Two rules derive them from :mod:`wynot.analysis.symbols`, and the
failure-resolution loop adds the ones it learns from build errors:

* *use needs definition*: a change that mentions a name on its BAD side needs
  the change that newly defines that name;
* *removal needs its users changed*: a change that removes a definition needs
  every change that rewrites a line mentioning that name (a renamed
  function's callers, the importers of a function moved to another module);
* *signatures*: a call that starts passing ``keep=`` to ``f`` needs the change
  that gives ``f`` that parameter, and a change that takes a parameter away
  from ``f`` needs the calls that stop passing it;
* *call shapes*: a change that reshapes ``f`` (reorders its parameters,
  drops a default) needs the changes that rewrite calls fitting only the old
  shape, and a call rewritten to fit only the new shape needs that change
  (:mod:`wynot.analysis.calls`);
* *scopes*, within one function or class: a change that reads a name needs
  the change that newly binds it there (``globs = {}`` added to a function
  that had no ``globs``, ``self.config = config`` added to a class), and the
  binding is *tied* to its readers (below); a change that stops binding a
  name there (a local, a parameter) needs the changes that rewrite the lines
  that read it;
* *prototypes*, C and C++: a prototype and a definition of one function
  retyped alike need each other;
* *imports*, within one file: a change that uses a name needs the change that
  imports it there, and a change that drops an import needs the changes to
  the lines of that file that used the name.

Given the files (:class:`~wynot.analysis.symbols.FileSymbols`), the first two rules
link Python files only where the user's file imports the name or its module,
and the import rules apply. Changes outside source files (prose, data) take
no part. The names are those Python evaluates at run time
(:mod:`wynot.analysis.runtime`): a local variable's annotation or an import
under ``if TYPE_CHECKING:`` creates no need, and stubs (``.pyi``) are linked
among themselves only.

A *tie* ``a -> b`` is weaker: ``a`` builds without ``b``, but on its own it
does nothing worth testing. A new name's binding without any of its readers
is dead code, and the binding and the changes that use the new name are
one edit: tied both ways, they form a cycle, so the search keeps them
together as a unit and predicts the configurations that split them. Only a
cycle of real needs proves that its changes are useless apart, so
:meth:`Dependencies.needs_only` leaves ties out.

In a language linked at run time (JavaScript), a use inside a function body
that loading the module does not run (:mod:`wynot.analysis.loadtime`) fails
only if the test calls that function: the first two rules then give a hint
(``hints``, for resolution), not a need. Uses that run when the module loads
(its top level, the body of a wrapper it calls, a function it calls while
loading) still need their definitions. Languages with a build step are
unchanged.

Names defined or removed by many changes (``run``, ``name``) say nothing about
a particular change and are ignored. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from wynot.analysis.calls import Signature, broken_by
from wynot.analysis.clusters import Cluster
from wynot.analysis.symbols import FileSymbols, Symbols
from wynot.changes import flipped

MAX_DEFINERS = 3      # a name newly defined by more changes than this is too common
MAX_USERS = 200       # a removed name on more changed lines than this is too common


@dataclass
class Dependencies:
    """A directed graph over change ids; ``needs[a]`` are the changes ``a`` needs,
    ties included; ``ties`` are the edges that are ties only. ``clusters``: the
    clusters by change (:mod:`wynot.analysis.clusters`) tied in as units."""

    needs: dict[int, set[int]] = field(default_factory=dict)
    ties: set[tuple[int, int]] = field(default_factory=set)
    clusters: list[Cluster] = field(default_factory=list)
    # (a, b, why): a probably needs b (a new name's user and its declaration),
    # not used for prediction; offered to resolution.
    hints: list[tuple[int, int, str]] = field(default_factory=list)
    # is_closed's last answer: (configuration, its members that lack a need) and who
    # needs each change; both forgotten whenever an edge is added.
    _last: tuple[frozenset[int], frozenset[int]] | None = field(
        default=None, init=False, repr=False, compare=False)
    _needed_by: dict[int, list[int]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without what is_closed remembers (the stored analysis)."""
        return {**self.__dict__, "_last": None, "_needed_by": None}

    def add(self, a: int, b: int) -> bool:
        """Record that ``a`` needs ``b``; True if it is new (a tie becomes a need)."""
        if a == b or (b in self.needs.get(a, ()) and (a, b) not in self.ties):
            return False
        self.ties.discard((a, b))
        self.needs.setdefault(a, set()).add(b)
        self._last = self._needed_by = None
        return True

    def discard(self, a: int, b: int) -> None:
        """Forget that ``a`` needs ``b`` (a need or a tie), if it was known."""
        needed = self.needs.get(a)
        if needed is not None and b in needed:
            needed.discard(b)
            if not needed:
                del self.needs[a]
            self.ties.discard((a, b))
            self._last = self._needed_by = None

    def tie(self, a: int, b: int) -> None:
        """Record that ``a`` is tied to ``b``, unless ``a`` already needs ``b``."""
        if a != b and b not in self.needs.get(a, ()):
            self.needs.setdefault(a, set()).add(b)
            self.ties.add((a, b))
            self._last = self._needed_by = None

    def add_cluster(self, cluster: Cluster) -> None:
        """Tie the members of a cluster in a ring: each one's closure is all of them."""
        members = sorted(cluster.members)
        for a, b in zip(members, members[1:] + members[:1], strict=True):
            self.tie(a, b)
        self.clusters.append(cluster)

    def cluster_of(self, change: int) -> Cluster | None:
        """The cluster by change that ``change`` belongs to, if any."""
        return next((c for c in self.clusters if change in c.members), None)

    def needs_only(self) -> Dependencies:
        """The same graph without its ties."""
        return Dependencies({a: {b for b in bs if (a, b) not in self.ties}
                             for a, bs in self.needs.items()})

    def closure(self, config: Iterable[int]) -> frozenset[int]:
        """The smallest superset of ``config`` that is closed under the dependencies."""
        closed = set(config)
        todo = list(closed)
        while todo:
            for b in self.needs.get(todo.pop(), ()):
                if b not in closed:
                    closed.add(b)
                    todo.append(b)
        return frozenset(closed)

    def interior(self, config: Iterable[int]) -> frozenset[int]:
        """The largest subset of ``config`` that is closed under the dependencies: the
        changes whose needs it lacks taken out, and those that need them."""
        kept = set(config)
        while lacking := {c for c in kept if not self.needs.get(c, set()) <= kept}:
            kept -= lacking
        return frozenset(kept)

    def is_closed(self, config: frozenset[int]) -> bool:
        """Whether every change ``config`` holds has what it needs in ``config``.

        Asked on every test, of configurations that mostly differ little from
        the one asked before: from the last answer (the members that lacked a
        need), only the changes that enter or leave, and those that need them,
        are looked at again. Otherwise (the first question, a configuration far
        from the last, an edge added since) a subset test per change that needs
        something, over the smaller of ``config`` and the changes with needs.
        """
        if not self.needs:
            return True
        last = self._last
        if last is not None and last[0] is config:
            return not last[1]
        unmet = None if last is None else self._unmet_from(config, *last)
        if unmet is None:
            needs = self.needs
            if len(needs) < len(config):
                unmet = frozenset(a for a, bs in needs.items() if a in config and not bs <= config)
            else:
                unmet = frozenset(a for a in config if a in needs and not needs[a] <= config)
        self._last = (config, unmet)
        return not unmet

    def _unmet_from(self, config: frozenset[int], before: frozenset[int],
                    unmet_before: frozenset[int]) -> frozenset[int] | None:
        """The members of ``config`` that lack a need, from those of ``before``;
        None when the two differ in more than an eighth of ``config``."""
        changed = flipped(before, config)
        if 8 * len(changed) > len(config):
            return None
        if self._needed_by is None:
            self._needed_by = {}
            for a, bs in self.needs.items():
                for b in bs:
                    self._needed_by.setdefault(b, []).append(a)
        needs, needed_by = self.needs, self._needed_by
        unmet = set(unmet_before)
        unmet.difference_update(changed)  # left: nothing to lack; entered: looked at below
        look = {a for a in changed if a in config and a in needs}
        for b in changed:
            for a in needed_by.get(b, ()):
                if a in config:
                    look.add(a)
        for a in look:
            if needs[a] <= config:
                unmet.discard(a)
            else:
                unmet.add(a)
        return frozenset(unmet)

    def components(self, nodes: Iterable[int]) -> list[list[int]]:
        """Strongly connected components (Tarjan), each sorted, in reverse topological
        order: a component comes after every component it needs."""
        return _tarjan(sorted(nodes), self.needs)


def derive(symbols: Mapping[int, Symbols],
           files: Mapping[int, FileSymbols] | None = None) -> Dependencies:
    """The dependencies that identifiers reveal; ``files`` maps each change to its file.

    Stubs (``.pyi``) are never imported at run time: a stub's changes are
    linked to other stubs' changes only, never to a module's.
    """
    deps = Dependencies()
    code = {cid: sym for cid, sym in symbols.items() if sym.code}
    for stubs in (False, True):
        _derive_part({cid: sym for cid, sym in code.items() if sym.stub is stubs}, files, deps)
    return deps


def _derive_part(code: Mapping[int, Symbols], files: Mapping[int, FileSymbols] | None,
                 deps: Dependencies) -> None:
    """The dependencies among ``code``'s changes, added to ``deps``."""
    if not code:
        return
    definers: dict[str, list[int]] = {}
    old_users: dict[str, list[int]] = {}
    param_adders: dict[tuple[str, str], list[int]] = {}
    keyword_droppers: dict[tuple[str, str], list[int]] = {}
    for cid, sym in code.items():
        for name in sym.defined:
            definers.setdefault(name, []).append(cid)
        for name in sym.old:
            old_users.setdefault(name, []).append(cid)
        for pair in sym.params_added:
            param_adders.setdefault(pair, []).append(cid)
        for pair in sym.keywords_removed:
            keyword_droppers.setdefault(pair, []).append(cid)
    definers = {n: ids for n, ids in definers.items() if len(ids) <= MAX_DEFINERS}

    def sees(user: int, owner: int, name: str, *, new: bool) -> bool:
        return files is None or files[user].sees(files[owner], name, new=new)

    defined = definers.keys()
    for cid, sym in code.items():
        if not defined.isdisjoint(sym.used):  # most changes use no new name
            for name in sym.used:
                for definer in definers.get(name, ()):
                    if sees(cid, definer, name, new=True):
                        _need(deps, cid, definer, name, later=name in sym.later)
        for name in sym.undefined:
            users = [u for u in old_users.get(name, ()) if sees(u, cid, name, new=False)]
            if len(users) <= MAX_USERS:
                for user in users:
                    _need(deps, cid, user, name, later=name in code[user].later_old)
        for pair in sym.keywords_added:
            adders = param_adders.get(pair, ())
            if len(adders) <= MAX_DEFINERS:
                for adder in adders:
                    deps.add(cid, adder)
        for pair in sym.params_removed:
            droppers = keyword_droppers.get(pair, ())
            if len(droppers) <= MAX_USERS:
                for dropper in droppers:
                    deps.add(cid, dropper)
    _derive_shapes(code, deps, sees)
    _derive_retyped(code, deps)
    if files is not None:
        where = {cid: files[cid].index for cid in code}
        _derive_imports(code, where, deps)
        _derive_locals(code, where, deps)


def _need(deps: Dependencies, a: int, b: int, name: str, *, later: bool) -> None:
    """``a`` needs ``b`` through ``name``; where the use runs only when a function
    is called (``later``: a language linked at run time), a hint, not a need."""
    if later:
        deps.hints.append((a, b, f"called later {name}"))
    else:
        deps.add(a, b)


def _derive_retyped(symbols: Mapping[int, Symbols], deps: Dependencies) -> None:
    """C and C++: a prototype and a definition retyped alike (the same function,
    the same signature before and after) need each other: either alone is
    ``conflicting types`` (:mod:`wynot.analysis.cfunctions`). A retyping shared
    by more changes than :data:`MAX_DEFINERS` (a common name) says nothing."""
    alike: dict[tuple[str, str, str], list[int]] = {}
    for cid, sym in symbols.items():
        for key in sym.retyped:
            alike.setdefault(key, []).append(cid)
    for ids in alike.values():
        if len(ids) <= MAX_DEFINERS:
            for a in ids:
                for b in ids:
                    deps.add(a, b)


def _derive_shapes(symbols: Mapping[int, Symbols], deps: Dependencies,
                   sees: Callable[..., bool]) -> None:
    """A reshaped function and the calls that one of its shapes breaks.

    Another file sees a method through its class (``parser.add_option`` in a
    file that imports ``OptionParser``)."""
    reshapers: dict[str, list[tuple[int, Signature, Signature]]] = {}
    for cid, sym in symbols.items():
        for name, before, after in sym.reshaped:
            reshapers.setdefault(name, []).append((cid, before, after))

    def visible(user: int, reshaper: int, function: str, owner: str, *, new: bool) -> bool:
        return (sees(user, reshaper, function, new=new)
                or bool(owner) and sees(user, reshaper, owner, new=new))

    for cid, sym in symbols.items():
        for call in sym.calls_old:
            for reshaper, before, after in reshapers.get(call.function, ())[:MAX_DEFINERS]:
                if (reshaper != cid and broken_by(call, before, after)
                        and visible(cid, reshaper, call.function, before.owner, new=False)):
                    deps.add(reshaper, cid)
        for call in sym.calls_new:
            for reshaper, before, after in reshapers.get(call.function, ())[:MAX_DEFINERS]:
                if (reshaper != cid and broken_by(call, after, before)
                        and visible(cid, reshaper, call.function, after.owner, new=True)):
                    deps.add(cid, reshaper)


def _derive_locals(symbols: Mapping[int, Symbols], files: Mapping[int, int],
                   deps: Dependencies) -> None:
    """Within one function or class: a read of a new name needs the change that
    binds it, and the binding is tied to its readers; a change that stops
    binding a name needs the changes that rewrite the lines reading it."""
    binders: dict[tuple[int, str, str], list[int]] = {}
    unbinders: dict[tuple[int, str, str], list[int]] = {}
    for cid, sym in symbols.items():
        for function, name in sym.locals_bound:
            binders.setdefault((files[cid], function, name), []).append(cid)
        for function, name in sym.locals_unbound:
            unbinders.setdefault((files[cid], function, name), []).append(cid)
    for cid, sym in symbols.items():
        for function, name in sym.locals_read:
            for binder in binders.get((files[cid], function, name), ())[:MAX_DEFINERS]:
                deps.add(cid, binder)
                deps.tie(binder, cid)
        for function, name in sym.locals_read_old:
            for unbinder in unbinders.get((files[cid], function, name), ())[:MAX_DEFINERS]:
                deps.add(unbinder, cid)


def _derive_imports(symbols: Mapping[int, Symbols], files: Mapping[int, int],
                    deps: Dependencies) -> None:
    """Within one file: uses need the import of the name, dropped imports their users.

    The imports are kept by file, so that the names of a change in a file whose
    changes import (or drop) nothing are not looked up one by one."""
    importers: dict[int, dict[str, list[int]]] = {}  # by file, by name
    unimporters: dict[int, dict[str, list[int]]] = {}
    for cid, sym in symbols.items():
        for name in sym.imported:
            importers.setdefault(files[cid], {}).setdefault(name, []).append(cid)
        for name in sym.unimported:
            unimporters.setdefault(files[cid], {}).setdefault(name, []).append(cid)
    for cid, sym in symbols.items():
        imported = importers.get(files[cid])
        if imported and not imported.keys().isdisjoint(sym.used):
            for name in sym.used:
                for importer in imported.get(name, ())[:MAX_DEFINERS]:
                    deps.add(cid, importer)
        unimported = unimporters.get(files[cid])
        if unimported and not unimported.keys().isdisjoint(sym.old):
            for name in sym.old:
                for unimporter in unimported.get(name, ())[:MAX_DEFINERS]:
                    deps.add(unimporter, cid)


def _needed(node: int, needs: Mapping[int, set[int]], inside: set[int]) -> Iterator[int]:
    """What ``node`` needs among ``inside``, in order (most changes need nothing)."""
    needed = needs.get(node)
    return iter(sorted(b for b in needed if b in inside) if needed else ())


def _tarjan(nodes: list[int], needs: Mapping[int, set[int]]) -> list[list[int]]:
    """Iterative Tarjan's algorithm restricted to ``nodes``."""
    inside = set(nodes)
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    result: list[list[int]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, _needed(root, needs, inside))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, _needed(child, needs, inside)))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
    return result
