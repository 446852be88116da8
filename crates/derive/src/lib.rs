//! The derives of the types jerry-contracts generates from its schemas. The generator writes
//! declarations with attributes; the logic those declarations need is written once, here:
//! - [`Object`]: `Deserialize` and `Serialize` in one pass over an object's members, keeping
//!   undeclared members exactly and refusing a member named twice;
//! - [`Skim`]: the check-only read of the validator's fast path;
//! - [`Poke`]: the soundness property's test hook (under the library's `testing` feature).
//!
//! They are an implementation detail of `jerry-contracts` (re-exported under its hidden
//! `__private` module), not an API of their own: their expansions name the library's runtime.

use proc_macro::TokenStream;
use syn::DeriveInput;

mod attrs;
mod object;
mod poke;
mod skim;

fn derive(input: TokenStream, expand: fn(&DeriveInput) -> syn::Result<proc_macro2::TokenStream>) -> TokenStream {
    match syn::parse::<DeriveInput>(input) {
        Ok(item) => expand(&item).unwrap_or_else(|err| attrs::error(&item, err)).into(),
        Err(err) => err.to_compile_error().into(),
    }
}

/// `Deserialize` and `Serialize` of a generated struct with an `extra` field for undeclared
/// members (`#[serde(flatten)]`).
#[proc_macro_derive(Object, attributes(serde))]
pub fn object(input: TokenStream) -> TokenStream {
    derive(input, object::expand)
}

/// The skim (and, for a type with `#[skim(keep)]` fields, the kept view) of a generated type.
#[proc_macro_derive(Skim, attributes(serde, garde, skim))]
pub fn skim(input: TokenStream) -> TokenStream {
    derive(input, skim::expand)
}

/// The soundness property's `Poke` of a generated type.
#[proc_macro_derive(Poke, attributes(serde))]
pub fn poke(input: TokenStream) -> TokenStream {
    derive(input, poke::expand)
}

#[cfg(test)]
mod tests {
    use syn::DeriveInput;

    fn item(tokens: proc_macro2::TokenStream) -> DeriveInput {
        syn::parse2(tokens).unwrap_or_else(|err| panic!("test input does not parse: {err}"))
    }

    /// The text of an expansion, or of its error as `compile_error!` gives it.
    fn expanded(item: &DeriveInput, expand: fn(&DeriveInput) -> syn::Result<proc_macro2::TokenStream>) -> String {
        expand(item).unwrap_or_else(|err| crate::attrs::error(item, err)).to_string()
    }

    #[test]
    fn object_reads_each_member_once_and_keeps_the_rest() {
        let item = item(quote::quote! {
            pub struct Score {
                #[serde(rename = "type")]
                pub kind: ::std::string::String,
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none", deserialize_with = "present")]
                pub note: ::std::option::Option<::std::string::String>,
                #[serde(flatten)]
                pub extra: ::jerry_contracts::Extra,
            }
        });
        let text = expanded(&item, crate::object::expand).replace(' ', "");
        assert!(
            text.contains("\"type\"=>::jerry_contracts::__private::read::member(&mut__map,\"type\",&mut__f0,::jerry_contracts::__private::located::whole::<::std::string::String>())?"),
            "a member is read into its slot by the runtime, which refuses a second one and places an error inside it: {text}"
        );
        assert!(text.contains("read::missing(\"type\")"), "a required member is missing when absent: {text}");
        assert!(
            text.contains("read::member(&mut__map,\"note\",&mut__f1,::jerry_contracts::__private::located::Present(::jerry_contracts::__private::located::whole::<::std::string::String>()))"),
            "an optional member given must hold a value, read by the runtime's seed: {text}"
        );
        assert!(text.contains("read::unknown(&mut__map,&mut__extra,__key)"), "{text}");
        assert!(text.contains("extra:__extra"), "{text}");
    }

    #[test]
    fn a_failure_names_the_type_and_the_schema_of_its_docs() {
        let item = item(quote::quote! {
            /// A score.
            ///
            /// Schema: `https://jerry.dev/schemas/common/types.json#/definitions/score`
            pub struct Score {
                pub overall: f64,
            }
        });
        let text = expanded(&item, crate::object::expand);
        assert!(text.contains("compile_error"), "{text}");
        assert!(
            text.contains("Score (schema https://jerry.dev/schemas/common/types.json#/definitions/score)"),
            "{text}"
        );
        assert!(text.contains("no `#[serde(flatten)]` field"), "{text}");
    }

    #[test]
    fn unknown_attributes_are_refused_not_skipped() {
        let serde = item(quote::quote! {
            pub struct S { #[serde(alias = "x")] pub a: u8, #[serde(flatten)] pub extra: E }
        });
        assert!(expanded(&serde, crate::object::expand).contains("a serde attribute the derives do not carry"));
        let skim = item(quote::quote! {
            #[serde(transparent)]
            pub struct S(#[garde(email)] ::std::string::String);
        });
        assert!(expanded(&skim, crate::skim::expand).contains("a garde rule the skim does not carry"));
        let mark = item(quote::quote! {
            pub struct S { #[skim(everything)] pub a: u8, #[serde(flatten)] pub extra: E }
        });
        assert!(expanded(&mark, crate::skim::expand).contains("a skim attribute the derive does not know"));
    }

    #[test]
    fn the_skim_checks_strings_in_place_and_keeps_what_is_marked() {
        let item = item(quote::quote! {
            pub struct Score {
                #[garde(length(chars, min = 1), pattern(ID_PATTERN))]
                #[skim(keep)]
                pub id: ::std::string::String,
                #[garde(dive)]
                pub items: ::std::vec::Vec<Item>,
                #[serde(flatten)]
                pub extra: ::jerry_contracts::Extra,
            }
        });
        let text = expanded(&item, crate::skim::expand).replace(' ', "");
        assert!(
            text.contains(
                "skim::Text{min:1,max:::std::primitive::usize::MAX,pattern:::std::option::Option::Some(&ID_PATTERN)"
            ),
            "{text}"
        );
        assert!(text.contains("skim::Items::<Item>"), "{text}");
        assert!(text.contains("pubstructScoreKept<'de>"), "a kept field gives a view: {text}");
        assert!(text.contains("TextKeep"), "a kept string is taken where it lies: {text}");
    }
}
