"""Synthetic tasks with a known right answer: Korean -> English toy translation and string reversal.

    from transformer_core.data import generate_pairs, reverse_examples
    from transformer_core.tasks import task_named   # a task's tokenizer: task_named("ko-en").tokenizer()
"""

from transformer_core.data.ko_en import KoEnGrammar, SentencePair, generate_pairs, join_words
from transformer_core.data.reverse import ReverseExample, reverse_examples
from transformer_core.data.splits import is_held_out
from transformer_core.data.tokenization import BOS_ID, EOS_ID, PAD_ID, SPECIAL_TOKENS, UNK_ID

__all__ = [
    "BOS_ID", "EOS_ID", "PAD_ID", "SPECIAL_TOKENS", "UNK_ID", "KoEnGrammar", "ReverseExample", "SentencePair",
    "generate_pairs", "is_held_out", "join_words", "reverse_examples",
]
