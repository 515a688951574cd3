"""Checks on the call itself: does it raise, does it warn. They take no input selector and `raises` is judged on
every input, including those where the spec expects the call to fail."""
from __future__ import annotations

from copysuite.judge.checks.base import Observed, check, error_matches, error_spec


def _dynamo(exc) -> bool:
    return type(exc).__module__.startswith("torch._dynamo")


def users_error(exc):
    """The error a caller's `except` sees, as (type name, message), and a detail: a compiler's error that wraps the
    program's own error (dynamo re-raises what the program raised while it traced it as a TorchRuntimeError, chained
    to the original) and is an instance of its class (TorchRuntimeError is a RuntimeError) counts as that error:
    `except RuntimeError` catches both alike. A wrapper that is not (the program raised a ValueError) is observed
    as itself."""
    inner, seen = exc, set()
    while _dynamo(inner) and id(inner) not in seen:
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
        if inner is None:
            break
    if inner is not None and inner is not exc and not _dynamo(inner) and isinstance(exc, type(inner)):
        return (type(inner).__name__, str(inner)), f"raised as {type(exc).__name__}, which wraps it"
    return (type(exc).__name__, str(exc)), None


@check("raises", accepts=error_spec(BaseException), agrees=error_matches, about_call=True,
       judges_failing_calls=True, examples=(("source.numpy()", {"type": "RuntimeError", "match": "requires grad"}),
                                            ("source.clone()", None)))
def raises(run):
    """The call raises this exception, a builtin class or `pickle.UnpicklingError` (torch.load's refusal: the one class
    of a module a spec may name), with a message that matches the regular expression `match`; or nothing (null)."""
    if run.raised is None:
        return Observed(run.error)
    return Observed(*users_error(run.raised))


COMPILED_WARNINGS = ("a compiled function emits its program's warnings when dynamo traces it, not on the calls that "
                     "reuse the compiled graph, so whether a call warns depends on the compile cache "
                     "(https://github.com/pytorch/pytorch/issues/128427)")


@check("warns", accepts=error_spec(Warning), agrees=error_matches, about_call=True, eager_only=COMPILED_WARNINGS,
       examples=(("torch.tensor(source)", {"type": "UserWarning", "match": "copy construct"}),
                 ("source.clone()", None)))
def warns(run):
    """The call emits a warning of this type whose message matches (null: it emits none). Every warning counts, and
    torch's once-per-process ones (TypedStorage's deprecation) are re-armed before each call."""
    return Observed(run.warnings)
