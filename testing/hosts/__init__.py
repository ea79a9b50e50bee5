"""Namespace hosts for the many-hosts tests and benchmark: a fleet of separate hosts
(own hostname, network and mount view) made with unshare, and the processes run in them."""
