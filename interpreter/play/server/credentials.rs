//! What grants access to a seat: the reconnection tokens. A token is 128
//! bits read from the operating system's randomness (`getrandom`), and
//! nothing else: never the games' seeded generator, the clock or
//! `--seed`, so knowing how a server was started tells nothing of the
//! tokens it gives. Game randomness stays seeded and reproducible; a token
//! changes nothing in a game.

/// Bytes of a token (128 bits).
pub const TOKEN_BYTES: usize = 16;

/// A new token: [`TOKEN_BYTES`] bytes from the operating system, as
/// lowercase hexadecimal (32 characters). Errors when the operating
/// system gives no randomness (then no seat is handed out).
pub fn token() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("the operating system gives no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_128_bits_of_hexadecimal_and_never_repeats() {
        let tokens: Vec<String> = (0..64).map(|_| token().expect("a token")).collect();
        for t in &tokens {
            assert_eq!(t.len(), 2 * TOKEN_BYTES);
            assert!(t
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        }
        let mut distinct = tokens.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), tokens.len());
    }
}
