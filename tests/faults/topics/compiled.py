"""Faults in the promises of specs/compiled.yaml: torch.compile itself, wrapped the way a backend bug looks from
outside. Each breaks one promise the way a regression in torch would."""
from __future__ import annotations

import torch

from tests.faults import original
from tests.faults.fault import fault

# absent before torch 2.0 (compile) and 2.1 (the counter): the catalog still loads there, and these faults skip
_compile = getattr(torch, "compile", None)
_set_version = getattr(torch._C._autograd, "_unsafe_set_version_counter", None)
_shares = lambda a, b: a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() and a.numel() and b.numel()


ON_COMPILE = dict(executions=("compile.eager",))


def _compiling(inputs=None, outputs=None):
    """A torch.compile whose compiled functions run `inputs(args)` instead of the args, and return
    `outputs(result, args)` instead of the result (the originals when not given)."""
    def compile(fn=None, *args, **kwargs):
        compiled = _compile(fn, *args, **kwargs)

        def call(*given):
            result = compiled(*(inputs(given) if inputs else given))
            return outputs(result, given) if outputs else result
        return call
    return [(torch, "compile", compile)]


@fault("compile_copies_aliasing_outputs", "a compiled function returns a copy of every output that aliases one of "
       "its inputs (a view of an input, or the input itself)",
       entries=["compiled.returns_input", "compiled.overlapping_views"],
       expected=[("compiled.returns_input", "same_object"), ("compiled.returns_input", "shares_storage")], **ON_COMPILE)
def _():
    def outputs(result, given):
        aliases = original.is_tensor(result) and any(original.is_tensor(g) and _shares(result, g) for g in given)
        if not aliases:
            return result
        return original.requires_grad_(original.detach(original.clone(result)), result.requires_grad)
    return _compiling(outputs=outputs)


@fault("compile_drops_input_mutation", "a compiled function runs on copies of its inputs: its in-place writes never "
       "reach the caller's tensors", entries=["compiled.mutates_input", "compiled.mutates_view_of_input"],
       expected=[("compiled.mutates_input", "source_untouched"),
                 ("compiled.mutates_view_of_input", "source_untouched")], **ON_COMPILE)
def _():
    def inputs(given):
        return tuple(original.clone(g) if original.is_tensor(g) else g for g in given)
    return _compiling(inputs=inputs)


@fault("compile_detaches_outputs", "a compiled function's outputs are detached from the graph: no gradient flows "
       "back to the inputs", entries=["compiled.view_of_intermediate"],
       expected=[("compiled.view_of_intermediate", "requires_grad"),
                 ("compiled.view_of_intermediate", "grad_to_source")], **ON_COMPILE)
def _():
    def outputs(result, given):
        return original.detach(result) if original.is_tensor(result) else result
    return _compiling(outputs=outputs)


@fault("compile_returns_new_object_for_input", "a compiled function that returns one of its inputs returns a new "
       "tensor object viewing it (same memory, but `result is input` is False)",
       entries=["compiled.returns_input", "compiled.copy_into_input"],
       expected=[("compiled.returns_input", "same_object"), ("compiled.copy_into_input", "same_object")], **ON_COMPILE)
def _():
    def outputs(result, given):
        return original.view_as(result, result) if any(result is g for g in given) else result
    return _compiling(outputs=outputs)


@fault("compile_splits_aliased_inputs", "a compiled function given the same tensor twice runs on a copy for the "
       "second occurrence: a write through one argument no longer shows through the other",
       entries=["compiled.same_tensor_twice"], expected=[("compiled.same_tensor_twice", "source_untouched[b]"),
                                                        ("compiled.same_tensor_twice", "same_object[b]")], **ON_COMPILE)
def _():
    def inputs(given):
        seen, out = set(), []
        for g in given:
            out.append(original.clone(g) if original.is_tensor(g) and id(g) in seen else g)
            seen.add(id(g))
        return tuple(out)
    return _compiling(inputs=inputs)


@fault("compile_copies_aliased_outputs", "a compiled function with several outputs that share memory (views of one "
       "intermediate, a tensor and its detach()) returns a copy of each after the first: its own memory, its own "
       "version counter", entries=["compiled.tensor_and_detach", "compiled.views_and_detach_of_intermediate"],
       expected=[("compiled.tensor_and_detach", "shares_storage[detached]"),
                 ("compiled.views_and_detach_of_intermediate", "shares_storage[second]"),
                 ("compiled.views_and_detach_of_intermediate", "shares_version_counter[detached]")], **ON_COMPILE)
def _():
    def outputs(result, given):
        if not isinstance(result, tuple):   # one output: nothing shares its memory with it
            return result
        kept = []
        for r in result:
            if original.is_tensor(r) and any(original.is_tensor(k) and _shares(r, k) for k in kept):
                r = original.requires_grad_(original.detach(original.clone(r)), r.requires_grad)
            kept.append(r)
        return tuple(kept)
    return _compiling(outputs=outputs)


def _restore_version(t, version):
    """Set `t`'s version counter back to `version` (the binding takes one tensor up to 2.6, sequences from 2.8)."""
    try:
        _set_version((t,), (version,))
    except TypeError:
        _set_version(t, version)


@fault("compile_hides_input_writes_from_autograd", "a compiled function's in-place writes to its inputs reach the "
       "caller's tensors but leave their version counters where they were: autograd cannot see the write",
       entries=["compiled.mutates_input", "compiled.mutates_view_of_input", "compiled.copy_into_view_of_input"],
       expected=[("compiled.mutates_input", "version_bumped"), ("compiled.mutates_view_of_input", "version_bumped"),
                 ("compiled.copy_into_view_of_input", "version_bumped")], **ON_COMPILE)
def _():
    before = []

    def inputs(given):
        before[:] = [(g, g._version) for g in given if original.is_tensor(g) and not g.is_inference()]
        return given

    def outputs(result, given):
        for g, version in before:
            _restore_version(g, version)
        return result
    return _compiling(inputs=inputs, outputs=outputs)
