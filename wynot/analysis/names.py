"""Which changes define, remove, declare and use each name: the by-name half of
failure resolution (:mod:`wynot.analysis.resolve` reads the diagnostics). Pure."""

from __future__ import annotations

from collections.abc import Mapping

from wynot.analysis.declarations import Edit, HunkDeclarations
from wynot.analysis.depends import MAX_USERS
from wynot.analysis.diagnostics import Diagnostic
from wynot.analysis.symbols import Symbols

MAX_REPAIR = 4  # changes one diagnostic may point at (the users of a removed name aside)
MAX_ALIKE = 16  # changes retyping a name's declarations alike that a repair round may add


class NameIndex:
    """The changes of a diff by the names they define, remove, declare and use."""

    def __init__(self, symbols: Mapping[int, Symbols],
                 declared: Mapping[int, HunkDeclarations]):
        self.signers: dict[tuple[str, str], list[int]] = {}
        self.definers: dict[str, list[int]] = {}
        self.removers: dict[str, list[int]] = {}
        self.unimporters: dict[str, list[int]] = {}
        self.old_users: dict[str, list[int]] = {}
        self.mentioners: dict[str, list[int]] = {}
        self.declarers: dict[str, list[tuple[int, str]]] = {}  # name -> (change, scope)
        for cid in sorted(symbols):
            sym = symbols[cid]
            for name in sym.mentioned:
                self.mentioners.setdefault(name, []).append(cid)
            if sym.stub:  # never imported at run time: it repairs no run-time error
                continue
            for name in sym.defined | sym.imported:
                self.definers.setdefault(name, []).append(cid)
            for name in sym.undefined:
                self.removers.setdefault(name, []).append(cid)
            for name in sym.unimported:
                self.unimporters.setdefault(name, []).append(cid)
            for name in (sym.old if sym.code else ()):
                self.old_users.setdefault(name, []).append(cid)
            for pair in sym.signature_pairs:
                self.signers.setdefault(pair, []).append(cid)
            for scope, name in sorted(sym.locals_bound):  # a Python class's attributes
                if scope.startswith("class "):
                    self.declarers.setdefault(name, []).append((cid, scope))
        # change -> the names it brings in that no change of the diff takes away
        # (a definition, or a declaration at file level or in a struct or class),
        # and name -> the changes whose added lines use it without declaring it
        self.introduced: dict[int, frozenset[str]] = {}
        self.users: dict[str, list[int]] = {}
        gone = {n for s in symbols.values() for n in s.undefined} | {
            n for d in declared.values() for _, n in d.removed}
        for cid in sorted(set(symbols) | set(declared)):
            found = symbols.get(cid)
            own = set(found.defined) if found is not None else set()
            if cid in declared:
                own.update(n for scope, n in declared[cid].added if _outer(scope))
            if own - gone:
                self.introduced[cid] = frozenset(own - gone)
            for name in found.used - own if found is not None else ():
                self.users.setdefault(name, []).append(cid)
        # name -> (change, scope) of each declaration a change takes away, and the
        # (scope, name) pairs some change declares anew (a declaration moved)
        self.undeclarers: dict[str, list[tuple[int, str]]] = {}
        self.redeclared: set[tuple[str, str]] = set()
        for cid in sorted(declared):
            for scope, name in sorted(declared[cid].removed):
                self.undeclarers.setdefault(name, []).append((cid, scope))
            self.redeclared.update(declared[cid].added)
        self.rewriters: dict[str, list[int]] = {}  # name -> changes that rewrite its declaration
        self.edits: dict[str, set[Edit]] = {}  # name -> how its declaration's line changed
        self.makers: dict[Edit, set[int]] = {}  # edit -> the changes that make it
        for cid in sorted(declared):
            for scope, name in sorted(declared[cid].added):
                self.declarers.setdefault(name, []).append((cid, scope))
            for name in sorted({name for _, name in declared[cid].rewritten}):
                self.rewriters.setdefault(name, []).append(cid)
            for name, edit in declared[cid].edits:
                self.edits.setdefault(name, set()).add(edit)
                self.makers.setdefault(edit, set()).add(cid)

    def repair(self, diagnostic: Diagnostic, applied: frozenset[int], users: set[int],
               files: set[int], owners: set[int], file_of: Mapping[int, int],
               scopes: Mapping[int, str]) -> tuple[set[int], set[int]]:
        """(fixes, users) for a named diagnostic, the first rule that names any:

        0. for a call or a value that no longer fits (``signature``), the
           changes that rewrite the line declaring the name (its signature or
           type), in the module the message names or the file of the error
           first, else anywhere if few (a repair round adds the declarations
           retyped alike: :meth:`alike`);

        1. a declaration of the name in the scope the message gives (the
           function of an ``undeclared`` (where the message does not say, the
           function of the applied change at its place), else the class of that
           member function; the struct or class of a member), else at file
           level in the file of the error, else at file level anywhere if few;
        2. the changes that newly define or import the name: in the file of
           the error, else in the module or file the message names, else
           anywhere if few;
        3. when an applied change removed its definition, the changes to the
           lines that used it (all of them: they are the removal's closure);
        4. when an applied change dropped its import, the changes to the lines
           of that file that used it;
        5. the changes that mention it in the function of an applied change
           that mentions it (a local variable), else in the file of the error,
           if few.

        A name defined twice (``redefined``: a definition added, or moved, where
        the old one is still there) is repaired by the changes that remove a
        definition of it, in the files of the error first; by nothing else.

        Rules 0, 1, 2 and 5 give nothing when more than :data:`MAX_REPAIR` fit.
        """
        name = diagnostic.name
        if diagnostic.kind == "redefined":
            removers = [c for c in self.removers.get(name, ()) if c not in applied]
            return _narrowest(removers, (files, owners), file_of), users
        if diagnostic.kind == "signature":  # a call or value that no longer fits
            rewriters = [c for c in self.rewriters.get(name, ()) if c not in applied]
            fitting = _narrowest(rewriters, (owners, files), file_of)
            if fitting:
                return fitting, users
        unapplied = [c for c in self.mentioners.get(name, ()) if c not in applied]
        mentioning = {c for c in self.mentioners.get(name, ()) if c in applied}
        reported_in = diagnostic.qualifier or _scope_of(users, scopes)
        fixes = self._declared(diagnostic.name, reported_in, applied, files, file_of)
        if fixes is None:
            definers = [c for c in self.definers.get(name, ()) if c not in applied]
            fixes = _narrowest(definers, (files, owners), file_of)
        if not fixes and any(c in applied for c in self.removers.get(name, ())):
            old_users = {c for c in self.old_users.get(name, ()) if c not in applied}
            fixes = old_users if len(old_users) <= MAX_USERS else set()
        unimporters = [c for c in self.unimporters.get(name, ()) if c in applied]
        if not fixes and unimporters:
            where = {file_of[c] for c in unimporters if c in file_of}
            fixes = {c for c in self.old_users.get(name, ())
                     if c not in applied and file_of.get(c) in where}
            return fixes, {u for u in unimporters if file_of.get(u) in where}
        if not fixes:
            user_scopes = {scopes[c] for c in mentioning | users if c in scopes}
            near = {c for c in unapplied if scopes.get(c) in user_scopes}
            if not near:  # in the file of the error, or anywhere when no place is known
                near = {c for c in unapplied if not files or file_of.get(c) in files}
            fixes = near if len(near) <= MAX_REPAIR else set()
            return fixes, mentioning if fixes else set()
        return fixes, mentioning | users

    def alike(self, name: str, applied: frozenset[int]) -> set[int]:
        """The changes outside ``applied`` that retype other declarations as
        ``name``'s is retyped (applied or not): the same tokens added or taken
        away, as a new parameter given to every function of a table and to the
        table's type, where any of them without the others is the same error
        again. Nothing when more than :data:`MAX_ALIKE` changes make the edits
        of ``name``'s declarations (one that common, ``const`` added, says
        nothing)."""
        makers = {c for edit in self.edits.get(name, ()) for c in self.makers[edit]}
        return {c for c in makers if c not in applied} if len(makers) <= MAX_ALIKE else set()

    def completions(self, applied: frozenset[int]) -> set[int]:
        """The changes outside ``applied`` that are the only ones to use a name an
        applied change brings in (:attr:`introduced`): a new struct member and
        the one hunk that initialises it, a new function and its one caller
        outside. Without them the configuration builds and the new name is
        there unused, or used uninitialised, which a run shows by a failure that
        names nothing (a crash). A guess, which a run checks; at most
        :data:`MAX_REPAIR` (none when more)."""
        found: set[int] = set()
        for name in {n for c in applied for n in self.introduced.get(c, ())}:
            outside = [u for u in self.users.get(name, ()) if u not in applied]
            if len(outside) == 1:
                found.add(outside[0])
        return found if len(found) <= MAX_REPAIR else set()

    def undeclarer(self, diagnostic: Diagnostic, applied: frozenset[int]) -> int | None:
        """The one applied change that takes away the declaration ``diagnostic``
        misses (a member a struct no longer has, a function or local no longer
        declared), when no change of the diff declares it again in that scope:
        for a member, among the changes that take it out of the struct or class
        the message names (else out of any struct or class, else anywhere); for
        an undeclared name, of the function it is used in or of the file. None
        when no change, or more than one, fits."""
        found = [(c, s) for c, s in self.undeclarers.get(diagnostic.name, ()) if c in applied]
        if diagnostic.kind == "member":
            wanted = diagnostic.qualifier.rpartition(" ")[2]
            named = [(c, s) for c, s in found if wanted and s.rpartition(" ")[2] == wanted]
            members = [(c, s) for c, s in found if s and _outer(s)]
            found = named or members or found
        elif diagnostic.kind == "undefined":
            function = diagnostic.qualifier.removeprefix("function ")
            found = [(c, s) for c, s in found
                     if not s or s == function or s.rpartition("::")[2] == function]
        else:
            return None
        if len({c for c, _ in found}) != 1 or any(
                (s, diagnostic.name) in self.redeclared for _, s in found):
            return None
        return found[0][0]

    def declares(self, name: str) -> bool:
        """Whether any change defines, declares, imports or removes ``name``."""
        return name in self.definers or name in self.declarers or name in self.removers

    def _declared(self, name: str, where: str, applied: frozenset[int], files: set[int],
                  file_of: Mapping[int, int]) -> set[int] | None:
        """Rule 1 for ``name`` reported in the scope ``where``, or None when no
        change declares the name (:mod:`wynot.analysis.declarations`)."""
        found = [(c, s) for c, s in self.declarers.get(name, ()) if c not in applied]
        if not found:
            return None
        # a C++ member function's name comes with its class (``Widget::area``,
        # ``ns.Widget::area`` from the analysis): a name undeclared there may be
        # one of the class's members
        owner, _, function = where.removeprefix("function ").rpartition("::")
        owner = owner.rsplit(".", 1)[-1]
        for wanted in (function, owner) if owner else (function,):
            scoped = {c for c, s in found if s and wanted in (s, s.rpartition(" ")[2])}
            if scoped:
                return scoped if len(scoped) <= MAX_REPAIR else set()
        top = [c for c, s in found if not s]
        return _narrowest(top, (files,), file_of)


def _outer(scope: str) -> bool:
    """Whether a declaration's scope is the file or a struct, union, class or
    enum (not a function's parameters and locals)."""
    return not scope or scope.partition(" ")[0] in ("struct", "union", "class", "enum")


def _scope_of(users: set[int], scopes: Mapping[int, str]) -> str:
    """The one function the applied changes at an error's place are in, for a
    message that does not say where it is (clang's): '' if none or several."""
    found = {scopes[u].partition(":")[2] for u in users if u in scopes}  # "3:Widget::f"
    return found.pop() if len(found) == 1 else ""


def _narrowest(changes: list[int], places: tuple[set[int], ...],
               file_of: Mapping[int, int]) -> set[int]:
    """The changes in the first of ``places`` (sets of files) that holds any, else
    all of them; nothing when that is more than MAX_REPAIR."""
    for files in places:
        inside = {c for c in changes if file_of.get(c) in files}
        if inside:
            return inside if len(inside) <= MAX_REPAIR else set()
    return set(changes) if len(changes) <= MAX_REPAIR else set()
