"""The pytest plugin of the suite: Hypothesis profiles, spec loading (a bad spec stops collection), test parameters, reporting."""
import os

import pytest
from hypothesis import HealthCheck, settings

from strategies.devices import device_skip_reason
from copysuite import plan
from copysuite.invariants import REGISTRY
from copysuite.outcomes import OutcomeRecorder
from copysuite.specs import SpecError, load_all

# dev: the default, fast. ci: reproducible (derandomized, no example database). deep: 150 examples, for reviewing
# spec changes. thorough: >= 1000 examples each.
_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
settings.register_profile("dev", max_examples=8, **_common)
settings.register_profile("ci", max_examples=25, derandomize=True, database=None, print_blob=True, **_common)
settings.register_profile("deep", max_examples=150, **_common)  # between ci and thorough, for spec reviews
settings.register_profile("thorough", max_examples=1000, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))  # --hypothesis-profile overrides this


ENTRIES = []


def pytest_addoption(parser):
    parser.addoption("--outcome-json", dest="outcome_json", default=None, metavar="PATH",
                     help="write every op x invariant x device outcome, with versions, as JSON to PATH")


def pytest_configure(config):
    # COPYSUITE_REQUIRE=cuda (e.g. on a GPU runner): a missing device is an error, not a run of skips
    for device in filter(None, os.environ.get("COPYSUITE_REQUIRE", "").split(",")):
        reason = device_skip_reason(device.strip())
        if reason:
            raise pytest.UsageError(f"COPYSUITE_REQUIRE={os.environ['COPYSUITE_REQUIRE']}: {reason}")
    try:
        ENTRIES[:] = load_all(REGISTRY)
    except SpecError as exc:
        raise pytest.UsageError(f"spec error: {exc}") from None
    config.pluginmanager.register(OutcomeRecorder(config), "copy-semantics-outcomes")
    # Under pytest-xdist a crashed worker (or one killed by pytest-timeout) is replaced and the run goes on; xdist's
    # default gives up after 4 restarts per worker, which would drop every test after a systematically crashing op.
    if getattr(config.option, "maxworkerrestart", "") is None:
        config.option.maxworkerrestart = "1000"


def pytest_generate_tests(metafunc):
    if "spec_entry" in metafunc.fixturenames:
        params = plan.test_params(ENTRIES)
        metafunc.parametrize(("spec_entry", "invariant", "device"), params,
                             ids=[plan.param_id(*p) for p in params])


@pytest.fixture(autouse=True)
def _record_ids(request):
    callspec = getattr(request.node, "callspec", None)
    if callspec and "spec_entry" in callspec.params:
        request.node.user_properties += [("spec_entry", callspec.params["spec_entry"].id),
                                         ("invariant", callspec.params["invariant"]),
                                         ("device", callspec.params["device"])]
