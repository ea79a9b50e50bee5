"""Stage crystallize: fragments on disk, effectiveness files, new signals, dossiers."""
