//! How the generated source is spelled, apart from what it says: a type named in a string is
//! written as Rust source writes it, and every item's documentation comes before its other
//! attributes.

use syn::Attribute;
use syn::visit_mut::VisitMut;

/// A type as Rust source writes it, `::std::vec::Vec<::std::string::String>`, not as tokens
/// print (`:: std :: vec :: Vec < :: std :: string :: String >`), for attributes that name a
/// type in a string (`schemars(with = "…")`). prettyplease writes it, as it writes the rest.
pub fn type_text(ty: &syn::Type) -> String {
    let item: syn::File = syn::parse_quote!(type T = #ty;);
    let text = prettyplease::unparse(&item);
    let text = text.trim();
    let inner = text.strip_prefix("type T = ").and_then(|t| t.strip_suffix(';')).unwrap_or(text);
    // A long type is broken over lines; in a string it reads on one.
    inner.split_whitespace().collect::<Vec<_>>().join(" ").replace("< ", "<").replace(" >", ">").replace(",>", ">")
}

/// Puts every item's, field's and variant's doc attributes before its other attributes (typify
/// writes `#[derive]` first, and later passes add docs at the end), keeping the order of each,
/// and writes each doc line with the space after `///` that hand-written docs have.
pub fn docs_first(file: &mut syn::File) {
    DocsFirst.visit_file_mut(file);
}

struct DocsFirst;

fn reorder(attrs: &mut Vec<Attribute>) {
    let (mut docs, rest): (Vec<Attribute>, Vec<Attribute>) =
        std::mem::take(attrs).into_iter().partition(|a| a.path().is_ident("doc"));
    docs.iter_mut().for_each(spaced);
    docs.extend(rest);
    *attrs = docs;
}

/// `#[doc = "Text"]` as `#[doc = " Text"]` (`///Text` as `/// Text`); a line that starts with
/// white space already, or is empty, is left as it is (indentation means something in Markdown).
fn spaced(attr: &mut Attribute) {
    let syn::Meta::NameValue(meta) = &mut attr.meta else { return };
    let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) = &mut meta.value else { return };
    let value = text.value();
    if value.starts_with(char::is_whitespace) || value.is_empty() {
        return;
    }
    *text = syn::LitStr::new(&format!(" {value}"), text.span());
}

impl VisitMut for DocsFirst {
    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        if let Some(attrs) = item_attrs(item) {
            reorder(attrs);
        }
        syn::visit_mut::visit_item_mut(self, item);
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        reorder(&mut field.attrs);
        syn::visit_mut::visit_field_mut(self, field);
    }

    fn visit_variant_mut(&mut self, variant: &mut syn::Variant) {
        reorder(&mut variant.attrs);
        syn::visit_mut::visit_variant_mut(self, variant);
    }

    fn visit_impl_item_fn_mut(&mut self, item: &mut syn::ImplItemFn) {
        reorder(&mut item.attrs);
        syn::visit_mut::visit_impl_item_fn_mut(self, item);
    }
}

fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    #[test]
    fn a_type_is_written_as_source_writes_it() {
        let cases = [
            ("::std::vec::Vec<::std::string::String>", "::std::vec::Vec<::std::string::String>"),
            ("Vec < Item >", "Vec<Item>"),
            (
                "::std::collections::HashMap<::std::string::String, ::std::vec::Vec<Item>>",
                "::std::collections::HashMap<::std::string::String, ::std::vec::Vec<Item>>",
            ),
            ("&'a mut dyn Fn(u8) -> u8", "&'a mut dyn Fn(u8) -> u8"),
            ("[u8; 4]", "[u8; 4]"),
        ];
        for (input, expected) in cases {
            let ty: syn::Type = syn::parse_str(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            let text = type_text(&ty);
            assert_eq!(text, expected);
            assert!(!text.contains(":: "), "{text}");
        }
        // A type too long for one line is still written on one.
        let long: syn::Type = syn::parse_str(&format!(
            "::std::collections::BTreeMap<::std::string::String, ::std::vec::Vec<::std::option::Option<{}>>>",
            "A".repeat(120)
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let text = type_text(&long);
        assert!(!text.contains('\n') && !text.contains(":: ") && !text.contains("< "), "{text}");
        assert_eq!(
            syn::parse_str::<syn::Type>(&text).map(|t| t.to_token_stream().to_string()).ok(),
            Some(long.to_token_stream().to_string())
        );
    }

    #[test]
    fn docs_come_before_derives_on_items_fields_and_variants() {
        let mut file: syn::File = syn::parse_quote! {
            #[derive(Clone)]
            #[doc = "A thing."]
            #[serde(deny_unknown_fields)]
            #[doc = ""]
            #[doc = " Schema: `x.json`"]
            pub struct Thing {
                #[serde(rename = "a")]
                #[doc = "The a."]
                pub a: u8,
            }
            #[derive(Debug)]
            #[doc = " An enum."]
            pub enum E {
                #[serde(rename = "x")]
                #[doc = " `x`"]
                X,
            }
        };
        docs_first(&mut file);
        let text = prettyplease::unparse(&file);
        let expected = "/// A thing.\n///\n/// Schema: `x.json`\n#[derive(Clone)]\n#[serde(deny_unknown_fields)]\npub struct Thing {\n    /// The a.\n    #[serde(rename = \"a\")]\n    pub a: u8,\n}\n/// An enum.\n#[derive(Debug)]\npub enum E {\n    /// `x`\n    #[serde(rename = \"x\")]\n    X,\n}\n";
        assert_eq!(text, expected);
    }
}
