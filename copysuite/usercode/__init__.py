"""Your own code: `copysuite.compare(fn, *args, executions=...)` runs a caller's function or torch.nn.Module eagerly
and under each execution (torch.compile's backends, functionalize, export) on fresh copies of the caller's inputs,
and compares everything a caller can observe of the call, the fuzzer's signature plus the module's state
(`sides`), judging each difference by the fuzzer's model and records (`verdicts`); the result is data with a
standalone reproduction per execution (`result`, `reproduction`, `script`). The inputs are rebuilt from their values,
aliasing kept (`inputs`). `pytest_plugin` is the `copysuite_compare` fixture; `api` the entry point.
"""
