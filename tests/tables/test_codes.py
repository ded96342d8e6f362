"""Codes, keys and tokens: readable aloud, hard to guess, stored hashed."""

from app.tables import codes


def test_the_alphabet_has_no_lookalikes():
    assert not set(codes.ALPHABET) & set("0O1IL")
    assert len(codes.ALPHABET) == 31


def test_codes_and_keys_have_their_lengths_and_alphabet():
    for _ in range(200):
        code, key = codes.new_code(), codes.new_join_key()
        assert len(code) == 5 and len(key) == 8
        assert set(code + key) <= set(codes.ALPHABET)


def test_a_join_key_has_more_than_39_bits():
    assert len(codes.ALPHABET) ** codes.KEY_LENGTH > 2 ** 39


def test_normalise_accepts_what_people_type_and_refuses_the_rest():
    assert codes.normalise(" k7p-xw ", 5) == "K7PXW"
    assert codes.normalise("hq4m 9rtz", 8) == "HQ4M9RTZ"
    assert codes.normalise("K7PX0", 5) is None  # a zero is never in a code
    assert codes.normalise("K7P", 5) is None
    assert codes.normalise(12345, 5) is None
    assert codes.normalise("A" * 1000, 5) is None


def test_tokens_are_long_random_and_hashed():
    first, second = codes.new_token(), codes.new_token()
    assert first != second and len(first) >= 43
    assert codes.token_hash(first) == codes.token_hash(first) != codes.token_hash(second)
    assert codes.same("a", "a") and not codes.same("a", "b") and not codes.same(None, None)
