"""Stage crystallize: fragments on disk, effectiveness files, new signals, dossiers.

``crystallizer`` runs the stage over ``store`` (the fragment files), ``snapshots`` (one
effectiveness file per line, its advice from ``guidance``), ``signals``
(``new-signals.md``) and ``promotion`` (dossiers, node-create messages), with the
prose of ``prose``; ``outcome`` gathers what the run did.
"""
