"""The concepts English alone has, and why Chinese lacks them (data only).

Every other concept is in every registered language
(``tests/language/test_concepts_in_every_language.py``): a concept added to one language
is added to the others, or declared here (and in each language that has it).
"""

from __future__ import annotations

from shared.language.lexicon.concept import alone

ALONE: dict[str, str] = {
    **alone(
        "a word list that the rules of a language written with spaces test whole words "
        "against (words(..., spaced=True)); a Chinese clause has no words to split, and its "
        "rules read the same things as phrases inside the clause, under concepts of their own",
        """abstract abstract_taking agent_person article bare_negator coded_relation_verb
        complement_link complement_modal compound_subject_verb definite_lead deliberating
        determiner event_noun generic_object generic_scope imperative inner_verb
        mass_artefact naming_noun need_verb not_before_verb not_value object_cue
        ordinal_noun permit_word place_prep preference_cue quality_scope quantifier
        relation_verb reply_noun restrictive scope_adverb setting_verb skip_lead stop
        stopword tool_name vague_verb""",
    ),
    **alone(
        "English words change form (suffixes, participles, the past tense); Chinese words do "
        "not, and mark a state reached with particles (zh perfective, past_marker, "
        "state_reached)",
        """adjective_suffix verb_suffix past_verb narrative_verb state_participle not_verb
        ordering""",
    ),
    **alone(
        "letter case: English capitalises names and shouts; Chinese script has no case",
        "product not_product shout",
    ),
    **alone(
        "English stems folded together for the overlap of two lines' triggers; Chinese cues "
        "are compared as character bigrams",
        """synonym:answer synonym:ask synonym:check synonym:chines synonym:commit
        synonym:deploy synonym:english synonym:error synonym:file synonym:fix synonym:list
        synonym:long synonym:meet synonym:price synonym:remov synonym:schedul synonym:short
        synonym:start synonym:summar synonym:tabl synonym:test synonym:write""",
    ),
    **alone(
        "an English sentence shape (its word order, a function word in a fixed place); its "
        "Chinese counterpart, where the rules have one, is a concept of its own in another "
        "order (modal beside zh modal_before, list_joiner beside punct:enum), and the rest "
        "wait for Chinese lines that need them",
        """appropriate arranged artefact_phrase capability_bullet choice convention
        described_subject ensure_phrase follow_own_rules halting_stop hedge inner_modal
        inner_prohibition judgement kept_current list_joiner means_before modal modal_be_to
        normative open_choice open_contingency passive_norm permitted placed
        placeholder_noun plan_step quality_phrase question_opening replacement_lead
        restriction scope styled vague_phrase""",
    ),
    **alone(
        "a whole English shape with named groups, built of its prepositions, articles, "
        "passive auxiliaries and setup nouns; Chinese lines of the same rules are read by "
        "their own concepts (a place by zh place particles, a prohibition by zh negation)",
        """means_named standing_passive where_named negated_item in_named_file
        setup_noun_name condition_word attributive_lead passive_auxiliary pro_one
        handling_verb plural_quantifier naming_copula participle_ending
        adverb_or_past_ending adverb_or_gerund_ending modal_lead bare_article""",
    ),
}
