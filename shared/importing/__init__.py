"""Importing coding-agent transcripts (Claude Code, Codex, SpecStory, aider) into the spine.

``formats/`` reads each tool's files into :class:`~shared.importing.records.Utterance`
records; ``redaction`` takes credentials out of every text; ``envelope`` turns utterances
into spine events with stable ids; ``watermark`` remembers how far each file was read;
``run`` drives one import over a set of sources.
"""
