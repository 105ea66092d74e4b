"""The sandbox and the kernels: bubblewrap around each kernel, the walls a forked
kernel builds for itself, and the fork server that starts kernels with PyTorch imported."""
