"""The oracle dd+ asks: predicted outcomes, real tests, and failure resolution.

For a configuration it

1. predicts UNRESOLVED without running anything when the configuration is
   not closed under the known dependencies (paper, section 6);
2. otherwise runs the test (through :class:`~wynot.tester.Tester`);
3. when that run did not build, runs the failure-resolution loop (paper,
   section 8): adds the few changes that the errors point to and retries.
   A repair that does not remove the errors it targeted ends the loop, and
   the configuration is UNRESOLVED: a configuration never grows on a guess.
   The dependencies a repair reveals are learned only once the enlarged
   configuration builds. The answer is then the outcome of the enlarged
   configuration, as in the paper; the pipeline later checks that the final
   answer fails on its own.

With a flaky test (``confirm`` > 1), a FAIL decides a step of dd+ only once
it held over ``confirm`` runs in a row; a PASS among them is the outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wynot.analysis.depends import Dependencies
from wynot.analysis.resolve import Resolver, is_construction_failure
from wynot.outcome import Outcome
from wynot.result import CACHED, RAN, TestRecord
from wynot.runner import Reason
from wynot.tester import DID_NOT_BUILD, Tester

MAX_RESOLUTION_ROUNDS = 4


@dataclass
class SearchOracle:
    tester: Tester
    deps: Dependencies
    # None: no failure-resolution loop; a callable builds the resolver when a
    # configuration first does not build (most searches never need it)
    resolver: Resolver | Callable[[], Resolver] | None
    resolve_patterns: Sequence[str] = ()
    learned: int = field(default=0)
    confirm: int = 1  # runs in a row a FAIL must hold (a flaky test: more than 1)

    def __call__(self, config: frozenset[int]) -> Outcome:
        if self.deps.needs and not self.deps.is_closed(config):  # no needs: nothing to check
            missing = len(self.deps.closure(config) - config)
            return self.tester.predict(config, "search",
                                       f"predicted: needs {missing} more changes").outcome
        record = self.tester.run(config, "search")
        if self.resolver is not None:
            record = self._resolve(config, record)
        fresh = record.source == RAN or (record.source == CACHED and record.earlier_run)
        if self.confirm > 1 and record.outcome is Outcome.FAIL and fresh:
            record = self.tester.confirm(record, self.confirm)
        return record.outcome

    def did_not_build(self, record: TestRecord) -> bool:
        """UNRESOLVED because the build failed or the output shows a build error."""
        if record.outcome is not Outcome.UNRESOLVED:
            return False
        if record.reason == Reason.BUILD_FAILED.value or record.reason.startswith(DID_NOT_BUILD):
            return True
        return is_construction_failure(record.output_text(), self.resolve_patterns)

    def _resolve(self, config: frozenset[int], record: TestRecord) -> TestRecord:
        """Grow a configuration that did not build until it does, or give up.

        Each round repairs what the last run reported; when a run still
        reports a diagnostic an earlier round targeted, the repair did not
        help and the loop stops there (UNRESOLVED).
        """
        enlarged = config
        targeted: set[object] = set()
        learned: list[tuple[int, int]] = []
        for _ in range(MAX_RESOLUTION_ROUNDS):
            if not self.did_not_build(record):
                for a, b in learned:
                    self.learned += self.deps.add(a, b)
                return record
            resolver = self._resolver()
            resolution = resolver.resolve(record.output_text(), enlarged)
            if not resolution.add or not targeted.isdisjoint(
                    d for d in resolver.diagnostics(record.output_text()) if d.name):
                break
            targeted.update(resolution.targets)
            learned.extend(resolution.learned)
            enlarged = self.deps.closure(enlarged | resolution.add)
            self.tester.progress(
                f"resolving: {', '.join(resolution.names[:4])} -> "
                f"adding {len(enlarged) - len(config)} changes")
            record = self.tester.run(enlarged, "search", resolving=config)
        return record

    def _resolver(self) -> Resolver:
        """The resolver, built now if it was given as a callable."""
        if not isinstance(self.resolver, Resolver):
            assert self.resolver is not None
            self.resolver = self.resolver()
        return self.resolver
