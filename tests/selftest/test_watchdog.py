"""copysuite.speed.watchdog: pytest-timeout's thread method with one timer thread per process (test_robustness.py shows
a hanging op still ends its worker and is named a casualty)."""
import threading
import time
from types import SimpleNamespace

from copysuite.speed.watchdog import SETTINGS, Watchdog, restart


def limit(seconds):
    return SimpleNamespace(timeout=seconds)


def test_a_test_past_its_limit_is_expired_with_its_item():
    expired = []
    dog = Watchdog(lambda item, settings: expired.append((item, settings.timeout)))
    dog.arm("slow test", limit(0.2))
    time.sleep(1.0)
    assert expired == [("slow test", 0.2)]


def test_a_test_that_ends_in_time_is_not_expired():
    expired = []
    dog = Watchdog(lambda item, settings: expired.append(item))
    for n in range(50):
        dog.arm(f"test {n}", limit(0.3))
        dog.disarm()
    time.sleep(0.6)
    assert expired == []


def test_one_thread_for_many_tests_and_a_later_test_still_expires():
    expired = []
    before = threading.active_count()
    dog = Watchdog(lambda item, settings: expired.append(item))
    for n in range(200):
        dog.arm(f"test {n}", limit(60))
        dog.disarm()
    assert threading.active_count() == before + 1
    dog.arm("hangs", limit(0.2))   # earlier than the deadline the thread waits for: it is woken
    time.sleep(1.0)
    assert expired == ["hangs"]


def test_a_test_that_restarts_its_limit_before_each_step_runs_past_it_and_a_hang_still_expires():
    """copysuite.speed.watchdog.restart bounds each case of a group run by the limit, not the whole run: arming again
    before each step moves the deadline on; a step that hangs is still expired."""
    expired = []
    dog = Watchdog(lambda item, settings: expired.append(item))
    for _ in range(6):   # 6 steps of 0.1 s: 0.6 s in all, past a 0.3 s limit
        dog.arm("group run", limit(0.3))
        time.sleep(0.1)
    assert expired == []
    time.sleep(0.6)      # then a step that hangs
    assert expired == ["group run"]


def test_restart_sets_the_timer_again_through_pytest_timeouts_hooks():
    """restart cancels the running test's timer and sets it again with the settings it was set with (pytest-timeout's
    hooks: either method); a test whose timer was never set (no limit) is left alone."""
    calls = []
    hooks = SimpleNamespace(pytest_timeout_cancel_timer=lambda item: calls.append(("cancel", item.name)),
                            pytest_timeout_set_timer=lambda item, settings: calls.append(("set", settings.timeout)))
    item = SimpleNamespace(name="test", ihook=hooks)
    restart(item)
    assert calls == []
    setattr(item, SETTINGS, limit(60))
    restart(item)
    assert calls == [("cancel", "test"), ("set", 60)]
