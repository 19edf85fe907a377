// wynot Rust case: base64 0.21.0 -> 0.22.0, "DecodeSliceError::OutputSliceTooSmall
// is now conservative rather than precise ... Engine::decode_slice can now be
// used with exactly-sized output slices" (RELEASE-NOTES.md, 0.22.0): decoding
// "YWI=" into a slice of 2 bytes was an OutputSliceTooSmall error, and gives
// "ab" in 0.22.0.
// Exit 0: old behaviour; 1: new; 125: anything else (a panic included: the
// program catches it, since an uncaught panic exits 101).
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use std::panic;
use std::process;

fn main() {
    let got = panic::catch_unwind(|| {
        let plain = STANDARD.decode("YWJjZA==").map_err(|e| format!("{:?}", e));
        let mut roomy = [0u8; 8];
        let spare = STANDARD.decode_slice("YWI=", &mut roomy).map_err(|e| format!("{:?}", e));
        let mut exact = [0u8; 2];
        let tight = STANDARD.decode_slice("YWI=", &mut exact).map_err(|e| format!("{:?}", e));
        (plain, spare, roomy, tight, exact)
    });
    let (plain, spare, roomy, tight, exact) = match got {
        Ok(values) => values,
        Err(_) => {
            println!("UNRESOLVED: base64 panicked");
            process::exit(125);
        }
    };
    if plain != Ok(b"abcd".to_vec()) || spare != Ok(2) || roomy[..2] != *b"ab" {
        println!("UNRESOLVED: decode gives {:?}, decode_slice {:?}", plain, spare);
        process::exit(125);
    }
    match tight {
        Err(ref e) if e == "OutputSliceTooSmall" => {
            println!("PASS: an exactly-sized slice is too small ({})", e);
            process::exit(0);
        }
        Ok(2) if exact == *b"ab" => {
            println!("FAIL: an exactly-sized slice takes the 2 bytes");
            process::exit(1);
        }
        _ => {
            println!("UNRESOLVED: decode_slice into 2 bytes gives {:?} {:?}", tight, exact);
            process::exit(125);
        }
    }
}
