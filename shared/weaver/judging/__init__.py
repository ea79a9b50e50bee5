"""The judging seams of memory-weaver, in one place.

``interfaces`` holds the records and Protocols a judge implements (the scanner's
:class:`EventJudge`, the updater's :class:`LineJudge`, the crystallizer's
:class:`DossierWriter`), ``vocabulary`` the closed vocabularies they answer in,
``rules`` the deterministic implementation, ``fixed`` a fixed-answer judge for tests,
and ``registry`` the names ``SUBCON_JUDGE`` selects from.
"""
