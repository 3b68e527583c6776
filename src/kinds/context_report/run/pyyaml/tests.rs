use super::*;

/// Each plain scalar with what PyYAML 6.0's `safe_load` made of it (run
/// beside context-report 0.1.0): the kind, and the value where it has one.
const READ_BY_PYYAML: &[(&str, &str, &str)] = &[
    ("yes", "bool", "true"),
    ("No", "bool", "false"),
    ("ON", "bool", "true"),
    ("off", "bool", "false"),
    ("y", "text", ""),
    ("n", "text", ""),
    ("true", "bool", "true"),
    ("FALSE", "bool", "false"),
    ("~", "null", ""),
    ("null", "null", ""),
    ("", "null", ""),
    ("NULL", "null", ""),
    ("Null", "null", ""),
    ("nul", "text", ""),
    ("=", "unreadable", ""),
    ("<<", "unreadable", ""),
    ("0", "int", "0"),
    ("-0", "int", "0"),
    ("+7", "int", "7"),
    ("010", "int", "8"),
    ("09", "text", ""),
    ("0o17", "text", ""),
    ("0b101", "int", "5"),
    ("-0b11", "int", "-3"),
    ("0x1F", "int", "31"),
    ("0x_1", "int", "1"),
    ("1_000", "int", "1000"),
    ("1:30", "int", "90"),
    ("-1:30", "int", "-90"),
    ("1:60", "text", ""),
    ("1:5:07", "int", "3907"),
    ("0:30", "text", ""),
    ("1.5", "float", "1.5"),
    ("1.0e5", "text", ""),
    ("1.0e+5", "float", "100000.0"),
    ("1e3", "text", ""),
    ("1E+3", "text", ""),
    (".5", "float", "0.5"),
    ("-.5", "text", ""),
    ("+.5e-2", "text", ""),
    (".inf", "float", "inf"),
    ("-.Inf", "float", "-inf"),
    ("+.INF", "float", "inf"),
    (".nan", "float", "NaN"),
    (".NaN", "float", "NaN"),
    ("1.", "float", "1.0"),
    ("1_0.5_0", "float", "10.5"),
    ("1:30.5", "float", "90.5"),
    ("0:30.", "float", "30.0"),
    ("1:30e+2", "text", ""),
    ("2024-01-01", "date", ""),
    ("2024-1-1", "text", ""),
    ("2001-12-14t21:59:43.10-05:00", "date", ""),
    ("2001-12-14 21:59:43.10 -5", "date", ""),
    ("2001-12-15 2:59:43.10", "date", ""),
    ("2001-12-14T21:59:43Z", "date", ""),
    ("2001-12-14T21:59:43 Z", "date", ""),
    ("2024-01-01x", "text", ""),
    ("20240101", "int", "20240101"),
    ("1:30:00.5", "float", "5400.5"),
    ("rule:never-commit", "text", ""),
    ("../../plugin", "text", ""),
    // Typed by the resolver, refused by the constructor (ValueError).
    ("0b_", "unbuildable", ""),
    ("-0x__", "unbuildable", ""),
    ("0_", "int", "0"),
    ("2001-13-45", "unbuildable", ""),
    ("2024-02-30", "unbuildable", ""),
    ("2024-02-29", "date", ""),
    ("2023-02-29", "unbuildable", ""),
    ("0000-01-01", "unbuildable", ""),
    ("2001-12-14 25:00:00", "unbuildable", ""),
    ("2001-12-14 21:60:00", "unbuildable", ""),
    ("2001-12-14 21:59:60", "unbuildable", ""),
    ("2001-12-14 21:59:43 +24", "unbuildable", ""),
    ("2001-12-14 21:59:43 +23:59", "date", ""),
    // No JSON number holds them; PyYAML does.
    ("1e400", "text", ""),
];

#[test]
fn plain_scalars_read_as_pyyaml_reads_them() {
    for &(text, kind, shown) in READ_BY_PYYAML {
        let reading = read_plain(text);
        let (got_kind, got_value) = match &reading {
            Reading::Text => ("text", String::new()),
            Reading::Bool(flag) => ("bool", flag.to_string()),
            Reading::Int(number) => ("int", number.to_string()),
            Reading::Float(float) => ("float", format!("{float:?}")),
            Reading::Null => ("null", String::new()),
            Reading::Date => ("date", String::new()),
            Reading::Unreadable(_) => ("unreadable", String::new()),
            Reading::Unbuildable(_) => ("unbuildable", String::new()),
        };
        assert_eq!((got_kind, got_value.as_str()), (kind, shown), "{text:?}");
    }
}

#[test]
fn a_reading_is_described_and_valued_as_the_tool_sees_it() {
    assert_eq!(read_plain("yes").described(), "the boolean true");
    assert_eq!(read_plain("1:30").described(), "the integer 90");
    assert_eq!(read_plain("2024-01-01").described(), "a date");
    assert_eq!(read_plain("=").described(), "YAML 1.1's value tag");
    assert_eq!(read_plain("no").value("no"), Value::Bool(false));
    assert_eq!(read_plain("0").value("0"), Value::from(0));
    // NaN is true to Python, as a non-empty text is.
    assert_eq!(read_plain(".nan").value(".nan"), Value::from(".nan"));
    assert_eq!(
        read_plain("99999999999999999999").value("x"),
        Value::from(1e20)
    );
    // Past a float's range, the integer is its digits.
    let huge = "9".repeat(400);
    assert_eq!(read_plain(&huge).value(&huge), Value::from(huge.clone()));
    assert_eq!(
        read_plain("2001-13-45").described(),
        "a date or a time no calendar holds"
    );
}

/// Against what PyYAML 6's `safe_load` says of each text.
#[test]
fn a_tab_stands_only_where_pyyamls_scanner_takes_it() {
    for (text, stray) in [
        ("tags: [\ta]", Some((1, 8))),
        ("tags: [a,\tb]", Some((1, 10))),
        ("tags:\t[a]", Some((1, 6))),
        ("tags: a\tb", Some((1, 8))),
        ("x: 1\t# c", Some((1, 5))),
        ("x: 1\n\t\n", Some((2, 1))),
        ("x: |\n  a\n\t\n", Some((3, 1))),
        ("x: 'a\tb'\t\n", Some((1, 9))),
        ("x: |\n  a\tb\n", None),
        ("x: |\n  a\n  \tb\n", None),
        ("x: 'a\tb'", None),
        ("x: \"a\tb\"", None),
        ("x: 'a\n\tb'\n", None),
        ("x: 1 # a\tb", None),
        ("# \t\nx: 1", None),
        ("x: [a, 'b\tc']", None),
        ("x: [a]", None),
    ] {
        assert_eq!(stray_tab(text), stray, "{text:?}");
    }
    // A tab that ends a block scalar in its indentation: YAML 1.2 refuses
    // the text too, and the front matter is refused as not YAML.
    let text = "x: |\n  a\n \tb\n";
    assert!(crate::yaml::load(text, &crate::yaml::Limits::default()).is_err());
}
