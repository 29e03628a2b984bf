"""Is this sentence inside what the model learned? The honest report behind every page's notice.

Two ways a sentence leaves the training data of a grammar-trained translator:

* unknown words: a word with a piece the vocabulary lacks becomes <unk>; the model cannot see it.
* known words in a construction the grammar never writes (먹어 봤어요, 먹고 갔어요): every piece is known,
  but the model never saw them together like this. The grammar's own recogniser (data/recogniser.py)
  finds them: it reduces each word to its shape (N ##에, P ##다, 싶 ##어요) and names the words around a
  pair of neighbouring shapes that the grammar never writes.

Either way the output is a guess, and the pages say so before the output, naming the words.

    from transformer_core.inference.report import translation_report
    translation_report(transformer_core.load("ko-en-toy"), "나는 피자를 먹고 싶다.")
    python -m transformer_core trace --model ko-en-toy --json "나는 피자를 먹고 싶다."
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from transformer_core.data.tokenization import UNK_ID

END_MARKS = (".", "?")


@dataclass(frozen=True)
class OutsideReport:
    """Which words of a sentence lie outside the model's training (see the module docstring)."""

    words: list[str]  # the sentence's words as the tokenizer splits them (punctuation apart)
    unknown_words: list[str] = field(default_factory=list)
    outside_constructions: list[str] = field(default_factory=list)  # known words in a pattern never trained
    grammar: str = ""  # the grammar whose recogniser judged the sentence ("" = none: only <unk> is checked)

    @property
    def outside_parts(self) -> list[str]:
        """Every word outside, in sentence order (unknown words and words of unknown constructions)."""
        outside = set(self.unknown_words) | set(self.outside_constructions)
        return [word for word in self.words if word in outside]

    @property
    def outside_training(self) -> bool:
        return bool(self.unknown_words or self.outside_constructions)


def recogniser_grammar(loaded) -> str:
    """The grammar whose recogniser applies to `loaded`: its config.json grammar for ko-en models
    ("" -> full, for models trained before the field existed); "" for other tasks and checkpoints."""
    from transformer_core.data.recogniser import has_recogniser
    from transformer_core.tasks import model_task

    task = model_task(loaded)
    if task is None or not task.grammar or not loaded.config.has_decoder:
        return ""
    grammar = getattr(loaded, "grammar", "") or "full"
    return grammar if has_recogniser(grammar) else ""


def _pre_tokens(tokenizer, text: str) -> list[str]:
    backend = tokenizer.backend_tokenizer
    normalized = backend.normalizer.normalize_str(text) if backend.normalizer is not None else text
    return [word for word, _ in backend.pre_tokenizer.pre_tokenize_str(normalized)]


def outside_report(loaded, text: str, src_tokens: list[str] | None = None) -> OutsideReport:
    """The report of `text` for `loaded` (its tokenizer; `src_tokens`: the pieces a trace already has,
    else the text is tokenized here). Cheap: a vocabulary lookup and a set lookup per word pair."""
    tokenizer = loaded.tokenizer
    words = _pre_tokens(tokenizer, text)
    unknown = [word for word in words if UNK_ID in tokenizer(word, add_special_tokens=False)["input_ids"]]
    grammar = recogniser_grammar(loaded)
    constructions: list[str] = []
    if grammar and words:
        from transformer_core.data.recogniser import outside_word_indices

        if src_tokens is None:
            src_tokens = tokenizer.convert_ids_to_tokens(tokenizer(text, add_special_tokens=False)["input_ids"])
        pieces = [piece for piece in src_tokens if piece not in tokenizer.all_special_tokens or piece == "<unk>"]
        if pieces and pieces[-1] not in END_MARKS:  # a sentence typed without its final mark reads as one
            pieces = [*pieces, "."]
        for index in outside_word_indices(pieces, grammar):
            if index < len(words) and words[index] not in END_MARKS:  # the mark added above is not named
                constructions.append(words[index])
    return OutsideReport(words, unknown, sorted(set(constructions), key=constructions.index), grammar)


def translation_report(loaded, text: str) -> dict:
    """Translate `text` with `loaded` (transformer_core.load(name)) and say whether it lies outside the
    model's training: output_text, src_tokens, unknown_words, outside_training, outside_parts,
    outside_constructions, grammar (the recogniser's; "" = only unknown words are checked)."""
    from transformer_core.inference.text import trace_text

    if not text.strip():
        return {"text": text, "output_text": "", "src_tokens": [], "unknown_words": [], "outside_training": False,
                "outside_parts": [], "outside_constructions": [], "grammar": recogniser_grammar(loaded)}
    result = trace_text(loaded, text)
    report = outside_report(loaded, text, list(result.src_tokens))
    return {"text": text, "output_text": result.output_text, "src_tokens": list(result.src_tokens),
            "unknown_words": report.unknown_words, "outside_training": report.outside_training,
            "outside_parts": report.outside_parts, "outside_constructions": report.outside_constructions,
            "grammar": report.grammar}


__all__ = ["OutsideReport", "asdict", "outside_report", "recogniser_grammar", "translation_report"]
