"""Many kernels on one cluster (issue #31): the registry of named kernels."""
