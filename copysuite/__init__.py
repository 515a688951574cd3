"""The machinery behind the conformance tests: spec loading, predicates, invariants, running an op, reporting."""
