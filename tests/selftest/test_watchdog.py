"""copysuite.speed.watchdog: pytest-timeout's thread method with one timer thread per process (test_robustness.py shows
a hanging op still ends its worker and is named a casualty)."""
import threading
import time
from types import SimpleNamespace

from copysuite.speed.watchdog import Watchdog


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
