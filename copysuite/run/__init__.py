"""Stage 3, running a program: build the generated input, run the program eagerly or under an execution
(executions.py: torch.compile backends, functionalize, export) in the case's grad mode, and record what happened as
a RunResult (execute.py); storage.py and probes.py observe tensors (storage identity, autograd metadata) before and
after the call; reproduction.py writes the standalone Python that reruns it; process_state.py sets back, after each
program, the process-global state it left switched (a forward-AD level a failed compile left entered, grad mode, ...).
"""
