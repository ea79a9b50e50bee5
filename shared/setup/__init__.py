"""Setting a kernel up: init layout, partition templates, the demo kernel."""
