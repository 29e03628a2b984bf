"""The Korean -> English sentence generator the ko-en task trains on: one grammar, "everyday-korean" (the bundled
models' config.json calls it by its old name "learner10"), and its compact core (the lab's), each pair with its
gold word alignment.

Data (beside these modules): the lexicon (one JSON file per stage: words, their senses and the tags that pick
them, one entry a line, read in stage order with a schema check that names file, line and field), the token ids
(vocabulary.txt), the recogniser's and the lost-word check's tables (constructions_*.json, renderings_*.json).
Code: the rules (hangul.py: conjugation and particles; english.py), the phrases and the base constructions
(base.py), the grammar's constructions, one layer of the grammar a module, each adding to the one before it
(constructions_everyday.py, constructions_syllabus.py, constructions_modality_comparison.py,
constructions_particles.py, constructions_collocations_numbers.py, constructions_level1_words.py,
constructions_compounds_dates.py, constructions_spoken_particles.py, constructions_deixis.py), each layer's endings
by rule in the forms module of the same name (forms_everyday.py ... forms_deixis.py; forms.py: every word they
write), the entry points (generator.py: it lists the layers), the vocabulary (vocabulary.py), the held-out split
(splits.py), the recogniser (recogniser.py, renderings.py). It imports nothing else of transformer_core.

    from transformer_core.grammar.generator import generate_pairs, ko_en_grammar
"""
