"""Tokenizers built with the `tokenizers` library, wrapped so `AutoTokenizer` can load them.

Both share the special tokens <pad>=0, <s>=1 (BOS), </s>=2 (EOS), <unk>=3. Encoding a text appends
</s> (the source side); the decoder's target ids are built as [<s>] + ids + [</s>] by the trainer.
Typed text never becomes a special token: "<pad>" in the input is the characters < pad >
(`split_special_tokens=True`, set here and again when loading.load_tokenizer loads any model).
"""

from __future__ import annotations

import os

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from transformer_core.data.charset import reverse_characters
from transformer_core.grammar.base import GRAMMAR, GRAMMAR_ALIASES
from transformer_core.grammar.vocabulary import GRAMMARS, ko_en_vocabulary

SPECIAL_TOKENS = ("<pad>", "<s>", "</s>", "<unk>")
PAD_ID, BOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3
MAX_LENGTH = 128


def _vocab(tokens: list[str]) -> dict[str, int]:
    vocab = {token: i for i, token in enumerate(SPECIAL_TOKENS)}
    for token in tokens:
        vocab.setdefault(token, len(vocab))
    return vocab


def _wrap(tokenizer: Tokenizer, clean_up_spaces: bool):
    """A transformers fast tokenizer around `tokenizer`, special tokens named for AutoTokenizer."""
    from transformers import PreTrainedTokenizerFast

    tokenizer.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", EOS_ID)])
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, pad_token="<pad>", bos_token="<s>", eos_token="</s>", unk_token="<unk>",
        clean_up_tokenization_spaces=clean_up_spaces, model_max_length=MAX_LENGTH, split_special_tokens=True,
    )


# The grammar new ko-en models train on (config.json "grammar" records it): the one grammar.
TRAINING_GRAMMAR = GRAMMAR
# Names a training run may give (the grammar, by its name or its old name); the ko-en task reads this variable.
TRAINING_GRAMMAR_ENV = "TRANSFORMER_EXPLORER_TRAINING_GRAMMAR"
TRAINABLE_GRAMMARS = GRAMMARS


def training_grammar() -> str:
    """The grammar the ko-en task trains on in this process: TRANSFORMER_EXPLORER_TRAINING_GRAMMAR when set (one of
    TRAINABLE_GRAMMARS), else TRAINING_GRAMMAR."""
    name = os.environ.get(TRAINING_GRAMMAR_ENV, "").strip() or TRAINING_GRAMMAR
    name = GRAMMAR_ALIASES.get(name, name)
    if name not in TRAINABLE_GRAMMARS:
        raise ValueError(f"{TRAINING_GRAMMAR_ENV}={name!r} names no grammar; expected one of "
                         f"{', '.join(TRAINABLE_GRAMMARS)}")
    return name


def build_ko_en_tokenizer(core: bool = False, grammar: str = TRAINING_GRAMMAR):
    """Morpheme pieces for Korean, whole words for English, one joint vocabulary (source and target share ids).

    Text is split on whitespace and punctuation ("먹었니?" -> "먹었니", "?"); each word is then cut
    into the grammar's pieces by WordPiece, longest match first: 학교에 -> 학교 ##에, 먹었어요 ->
    먹었 ##어요, 공부했어요 -> 공부 ##했 ##어요. The vocabulary is not learned from a corpus: it is
    every stem and every particle/ending the grammar has (vocabulary.py), so a known stem with a
    known ending is known even in a combination never generated, and a word with any part the
    grammar lacks becomes one <unk>. Decoding joins words with spaces, glues "##" pieces to the
    word before and re-attaches . , ? ! (WordPiece decoder cleanup). `core=True`: the vocabulary of the
    compact core grammar only (the training lab's tokenizer; anything outside the core is <unk>).
    `grammar`: the one grammar (TRAINING_GRAMMAR; its old name "learner10" too): the ids of vocabulary.txt, the
    bundled models' ids.
    """
    tokenizer = Tokenizer(models.WordPiece(_vocab(list(ko_en_vocabulary(core, grammar))), unk_token="<unk>",
                                           continuing_subword_prefix="##", max_input_chars_per_word=50))
    tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                       pre_tokenizers.Punctuation("isolated")])
    tokenizer.decoder = decoders.WordPiece(prefix="##", cleanup=True)
    return _wrap(tokenizer, clean_up_spaces=True)


def build_reverse_tokenizer():
    """Character-level: every character is a token (spaces too); decoding concatenates them."""
    tokenizer = Tokenizer(models.WordLevel(_vocab(reverse_characters()), unk_token="<unk>"))
    tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex("(?m)."), behavior="isolated")
    tokenizer.decoder = decoders.Fuse()
    return _wrap(tokenizer, clean_up_spaces=False)


def build_letter_tokenizer(letters: str):
    """Character-level over `letters` (lower-cased first); anything else is <unk> (the lab's letter tasks)."""
    tokenizer = Tokenizer(models.WordLevel(_vocab(list(letters)), unk_token="<unk>"))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Lowercase()])
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex("(?m)."), behavior="isolated")
    tokenizer.decoder = decoders.Fuse()
    return _wrap(tokenizer, clean_up_spaces=False)
