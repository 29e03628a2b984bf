"""The tasks' data: tokenizers (the ko-en grammar's, the reverse task's characters, the lab's letters), the reverse
task's texts and the special ids. The Korean -> English sentences come from transformer_core.grammar.

    from transformer_core.data import generate_pairs, reverse_examples
    from transformer_core.tasks import task_named   # a task's tokenizer: task_named("ko-en").tokenizer()
"""

from transformer_core.data.reverse import ReverseExample, reverse_examples
from transformer_core.data.tokenization import BOS_ID, EOS_ID, PAD_ID, SPECIAL_TOKENS, UNK_ID
from transformer_core.grammar.base import KoEnGrammar, SentencePair, generate_pairs, join_words
from transformer_core.grammar.splits import is_held_out

__all__ = [
    "BOS_ID", "EOS_ID", "PAD_ID", "SPECIAL_TOKENS", "UNK_ID", "KoEnGrammar", "ReverseExample", "SentencePair",
    "generate_pairs", "is_held_out", "join_words", "reverse_examples",
]
