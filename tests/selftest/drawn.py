"""The programs a strategy of copysuite.fuzz.generate draws from one seed, for the self-tests that inspect the draws
themselves (what ops a shape brings, what a vocabulary prints, that a seed repeats)."""
from hypothesis import HealthCheck, Phase, given, seed, settings


def drawn_programs(strategy, count: int, at: int = 0) -> list:
    """The first `count` programs `strategy` draws from seed `at`, in order (generation only, no shrinking)."""
    found = []

    @seed(at)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(program):
        found.append(program)

    collect()
    return found
