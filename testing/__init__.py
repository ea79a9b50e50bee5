"""Helpers the test suite shares: one redis-server launcher, one polling helper, demo
kernels and their samples, real worker processes, and small git-repository helpers.

Plain modules, not tests: test modules import from here rather than from one another.
"""
