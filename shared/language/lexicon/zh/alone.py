"""The concepts Chinese alone has, and why English lacks them (data only).

Every other concept is in every registered language
(``tests/language/test_concepts_in_every_language.py``): a concept added to one language
is added to the others, or declared here (and in each language that has it).
"""

from __future__ import annotations

from shared.language.lexicon.concept import alone

ALONE: dict[str, str] = {
    **alone(
        "a shape of a language written without spaces: where a word or a clause starts and "
        "ends is read from the characters around it (a particle, 时/前/后 closing a "
        "situation, a modal or adverb glued to its verb); the English rules read the same "
        "from word order and whole words",
        """adverb_cue bare_time change_lead complement_quality direction event_label
        forbid_use generic_run inability latin_verb making_verb means_lead modal_before
        negating_lead obligation one_per particle person practice_end prohibition_adverb
        purpose_lead quantified_copula question_form reduplication rule_mark sequence
        time_word trailing_time treated_person vague_opening placed_file""",
    ),
    **alone(
        "Chinese marks a state reached or a thing described with particles (了, 已, 的, 于 "
        "and a date); English does so with verb forms (en past_verb, state_participle)",
        "past_marker perfective state_reached placed_state descriptive_end",
    ),
    **alone(
        "在 <path> 内 opens a Chinese clause on the place it acts in and leaves its verb to "
        'follow; English leads with its verb ("In `actions.py`, clip the ranges")',
        "in_file",
    ),
    **alone(
        "a date or a record's name written out in Chinese (2026年3月5日, …记录); English "
        "dates are read by the neutral date shape",
        "date_stamp log_stamp",
    ),
    **alone(
        "the names of the languages a Chinese label's value may be (主要语言：中文); an "
        "English value is a Latin name, read by its shape",
        "language_name",
    ),
    **alone(
        "the agent given a role (你是一个…专家): no English role line has been seen among the "
        "rejects yet",
        "persona",
    ),
    **alone("the enumeration comma 、: English writes none", "punct:enum"),
}
