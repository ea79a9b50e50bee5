"""Stage scan: spine slices in, line-referenced judgements (fragments) out; writes nothing."""
