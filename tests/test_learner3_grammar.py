"""Grammar "learner3": the learner2 grammar plus a beginner syllabus's constructions (-(으)ㄹ 수 있다, -아/어야 하다,
-고, -(으)면, -기 전에 / -(으)ㄴ 후에, -(으)러 가다, -아/어 보다, -(으)ㄴ 적이 있다, -지 마세요, -(으)ㅂ시다, -(으)세요,
계시다) and honorific suppletion (드시다, 주무시다, 계시다, 말씀하시다), over a third round of the learner lexicon.
Grammar "learner2", on which a model is being trained, is exactly as it was on main."""

from __future__ import annotations

import hashlib
import json

from transformer_core.data.ko_en_everyday import generate_pairs
from transformer_core.data.vocabulary import ko_en_vocabulary

# Measured on main at c7d2c68 (before grammar learner3): sha256 of json.dumps([[source, target, alignment] ...],
# ensure_ascii=False) of generate_pairs(300, seed=4, grammar="learner2"), and of the learner2 vocabulary joined by
# newlines.
LEARNER2_STREAM_SHA256 = "5c3186d75c2079daedb05eaf60e7b1e21b2680db4d1e553ebc53f18966580fea"
LEARNER2_VOCABULARY_SHA256 = "80f989499c9de894f97e5a4d1108aece0404ebce48473aef0a4d9b2bb568b723"
LEARNER2_VOCABULARY_SIZE = 12551


# --- grammar "learner2" is untouched -----------------------------------------------------------------------------

def test_the_learner2_stream_and_vocabulary_are_those_of_main():
    pairs = generate_pairs(300, seed=4, grammar="learner2")
    stream = json.dumps([[p.source, p.target, p.alignment] for p in pairs], ensure_ascii=False)
    assert hashlib.sha256(stream.encode()).hexdigest() == LEARNER2_STREAM_SHA256
    vocabulary = ko_en_vocabulary(grammar="learner2")
    assert len(vocabulary) == LEARNER2_VOCABULARY_SIZE
    assert hashlib.sha256("\n".join(vocabulary).encode()).hexdigest() == LEARNER2_VOCABULARY_SHA256
