"""Tokenizers built with the `tokenizers` library, wrapped so `AutoTokenizer` can load them.

Both share the special tokens <pad>=0, <s>=1 (BOS), </s>=2 (EOS), <unk>=3. Encoding a text appends
</s> (the source side); the decoder's target ids are built as [<s>] + ids + [</s>] by the trainer.
"""

from __future__ import annotations

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from .charset import reverse_characters
from .vocabulary import ko_en_vocabulary

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
        clean_up_tokenization_spaces=clean_up_spaces, model_max_length=MAX_LENGTH,
    )


def build_ko_en_tokenizer():
    """Word-level, one joint Korean + English vocabulary (so source and target share ids).

    Words are split on whitespace and punctuation ("먹었니?" -> "먹었니", "?"); decoding joins
    words with spaces and re-attaches . , ? ! (WordPiece decoder cleanup).
    """
    tokenizer = Tokenizer(models.WordLevel(_vocab(ko_en_vocabulary()), unk_token="<unk>"))
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


def build_tokenizer(task: str):
    """The tokenizer of `task` ('ko-en' or 'reverse')."""
    if task == "ko-en":
        return build_ko_en_tokenizer()
    if task == "reverse":
        return build_reverse_tokenizer()
    raise ValueError(f"unknown task {task!r}; expected 'ko-en' or 'reverse'")
