"""The suite on a GPU: one command that runs every execution on `cuda`, the seed scenarios and the CUDA benchmarks
into a folder the matrix reads (`runner`, its steps in `plan`), and the sidecar that says where such a folder came from
(`source`). docs/gpu.md is the user's guide."""
