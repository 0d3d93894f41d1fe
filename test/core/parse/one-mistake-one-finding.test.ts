/**
 * One typing mistake is one syntax finding, on the token it is about, and the rest of the
 * document reads as written. Each pattern below has its own cases (the fast parser and the
 * reference parser alike); then a generator applies every such mistake at every place it fits in
 * a small envelope and counts the findings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import type { ValueNode } from '../../../core/model/tree';
import { parseText } from '../../../core/parse/parser';
import { parseJson as referenceParse } from '../../oracle/reference-parser';

/** [pattern, text, the one finding as `token — message`, what the text reads as] */
const CASES: readonly [string, string, string, unknown][] = [
  ['a stray word before a key', '{\n  x "queue": "orders",\n  "n": 1\n}', "x — Unexpected word 'x' before the property name; remove it.", { queue: 'orders', n: 1 }],
  ['a stray word alone on the line before a key', '{"a": 1,\n  x\n  "queue": "orders"}', `x — Unexpected word 'x' before the property name on the next line: write a property of its own as "x": value, followed by a comma, or remove it.`, { a: 1, queue: 'orders' }],
  ['a stray word between a key and its colon', '{"queue"x: "orders", "n": 1}', `x — Unexpected word 'x' between the property name "queue" and its colon; remove it.`, { queue: 'orders', n: 1 }],
  ['a stray word against a value\'s opening quote', '{"queue": x"orders", "n": 1}', "x — Unexpected word 'x' before the value; remove it.", { queue: 'orders', n: 1 }],
  ['a stray word before an object value', '{"data": x {"a": 1}, "n": 1}', "x — Unexpected word 'x' before the value; remove it.", { data: { a: 1 }, n: 1 }],
  ['a stray word against the end of a value', '{"currency": "EUR"x,\n  "n": 1}', "x — Unexpected word 'x' after the value; remove it.", { currency: 'EUR', n: 1 }],
  ['a stray word after a value and a space, before "}"', '{"data": {"quantity": 1 x}, "n": 1}', "x — Unexpected word 'x' after the value; remove it.", { data: { quantity: 1 }, n: 1 }],
  ['a stray word against the end of an array item', '{"tags": ["a"x, "b"], "n": 1}', "x — Unexpected word 'x' after the value; remove it.", { tags: ['a', 'b'], n: 1 }],
  ['a comma typed for the colon', '{"queue", "orders", "n": 1}', `, — Expected ':' after the property name "queue", found ','.`, { queue: 'orders', n: 1 }],
  ['a comma typed for the colon before an object', '{"data", {"a": 1}, "n": 1}', `, — Expected ':' after the property name "data", found ','.`, { data: { a: 1 }, n: 1 }],
  ['a "{" typed for the colon', '{"queue"{ "orders", "n": 1}', `{ — Expected ':' after the property name "queue", found '{'.`, { queue: 'orders', n: 1 }],
  ['a "}" typed for the colon', '{"queue"} 7, "n": 1}', `} — Expected ':' after the property name "queue", found '}'.`, { queue: 7, n: 1 }],
  ['a comma before the colon', '{"queue",: "orders", "n": 1}', `, — Unexpected ',' between the property name "queue" and its colon; remove it.`, { queue: 'orders', n: 1 }],
  ['a quote before the colon', '{"queue"": "orders", "n": 1}', `" — Unexpected '"' between the property name "queue" and its colon; remove it.`, { queue: 'orders', n: 1 }],
  ['a bracket before the colon', '{"queue"]: "orders", "n": 1}', `] — Unexpected ']' between the property name "queue" and its colon; remove it.`, { queue: 'orders', n: 1 }],
  ['a letter typed for the comma at a line\'s end', '{\n  "queue": "orders"x\n  "n": 1\n}', "x — Expected ',' after the value, found 'x'.", { queue: 'orders', n: 1 }],
  ['a "]" typed for the comma at a line\'s end, no array open', '{\n  "queue": "orders"]\n  "n": 1\n}', "] — Expected ',' instead of ']'.", { queue: 'orders', n: 1 }],
  ['a "{" typed before a string value', '{"job": {"urn:babel:orders:created",\n  "n": 1}', `{ — Unexpected '{' before the string "urn:babel:orders:created"; remove it.`, { job: 'urn:babel:orders:created', n: 1 }],
  ['a "{" typed before a string value that holds an escape', '{"path": {"C:\\\\orders",\n  "n": 1}', `{ — Unexpected '{' before the string "C:\\\\orders"; remove it.`, { path: 'C:\\orders', n: 1 }],
  ['a "{" typed before a string item', '{"tags": ["a", {"b", "c"], "n": 1}', `{ — Unexpected '{' before the string "b"; remove it.`, { tags: ['a', 'b', 'c'], n: 1 }],
  ['a second colon', '{"queue":: "orders", "n": 1}', `: — Unexpected second ':' after the property name "queue"; remove it.`, { queue: 'orders', n: 1 }],
  ['a second colon before an object', '{"data": :{"a": 1}, "n": 1}', `: — Unexpected second ':' after the property name "data"; remove it.`, { data: { a: 1 }, n: 1 }],
  ['a comma after the colon', '{"queue":, "orders", "n": 1}', `, — Unexpected ',' after the property name "queue" and its colon, before the value; remove it.`, { queue: 'orders', n: 1 }],
  ['a comma after the colon before an object', '{"data":, {"a": 1}, "n": 1}', `, — Unexpected ',' after the property name "data" and its colon, before the value; remove it.`, { data: { a: 1 }, n: 1 }],
  ['a stray "}" after a comma, before the next key', '{"data": {"a": 1, }\n  "b": 2}, "n": 1}', "} — Unexpected '}': the object goes on after it; remove it.", { data: { a: 1, b: 2 }, n: 1 }],
  ['a stray "}" that closed the envelope, before a comma', '{\n  "a": 1 },\n  "n": 1\n}', "} — Unexpected '}': the object goes on after it; remove it.", { a: 1, n: 1 }],
  ['a "}" typed for the comma between two keys of the envelope', '{"a": 1 } "n": 1}', "} — Expected ',' instead of '}': the object goes on after it.", { a: 1, n: 1 }],
  ['a stray "}" after an inner object\'s "{", its keys on the lines after it', '{\n  "data": {}\n    "order_id": 1042,\n    "x": 1\n  },\n  "n": 1\n}', "} — Unexpected '}': the object goes on after it; remove it.", { data: { order_id: 1042, x: 1 }, n: 1 }],
  ['a "}" typed for the comma in an inner object, its next key on the line after it', '{\n  "data": {\n    "order_id": 1042}\n    "x": 1\n  },\n  "n": 1\n}', "} — Expected ',' instead of '}': the object goes on after it.", { data: { order_id: 1042, x: 1 }, n: 1 }],
  ['a stray "}" after the envelope\'s "{"', '{}\n  "a": 1,\n  "n": 1\n}', "} — Unexpected '}': the object goes on after it; remove it.", { a: 1, n: 1 }],
  ['a stray "}" before a value', '{"queue": } "orders", "n": 1}', `} — Unexpected '}' before the value of "queue"; remove it.`, { queue: 'orders', n: 1 }],
  ['a stray "]" before a value', '{"data": ]{"a": 1}, "n": 1}', `] — Unexpected ']' before the value of "data"; remove it.`, { data: { a: 1 }, n: 1 }],
  ['a string value\'s opening quote left out, the value holding colons', '{"job": urn:babel:orders:created",\n  "n": 1}', 'urn:babel:orders:created" — The string "urn:babel:orders:created" lacks its opening double quote: write "urn:babel:orders:created".', { job: 'urn:babel:orders:created', n: 1 }],
  ['a string value\'s opening quote left out, on one line', '{"job": urn:babel:orders:created", "n": 1}', 'urn:babel:orders:created" — The string "urn:babel:orders:created" lacks its opening double quote: write "urn:babel:orders:created".', { job: 'urn:babel:orders:created', n: 1 }],
  ['a string value\'s opening quote left out, the value on its own line', '{\n  "job":\n    urn:babel:orders:created",\n  "n": 1\n}', 'urn:babel:orders:created" — The string "urn:babel:orders:created" lacks its opening double quote: write "urn:babel:orders:created".', { job: 'urn:babel:orders:created', n: 1 }],
  ['a string value\'s opening quote left out in an inner object', '{"data": {"job": urn:babel:orders:created", "a": 1}, "n": 1}', 'urn:babel:orders:created" — The string "urn:babel:orders:created" lacks its opening double quote: write "urn:babel:orders:created".', { data: { job: 'urn:babel:orders:created', a: 1 }, n: 1 }],
  ['a string value\'s opening quote left out, the value holding words', '{"city": New York",\n  "n": 1}', 'New York" — The string "New York" lacks its opening double quote: write "New York".', { city: 'New York', n: 1 }],
  ['a UUID value\'s opening quote left out, on one line', '{"id": 38e69665-58a3-4c1e-9a55-0c1b7e2f5a11", "n": 1}', '38e69665-58a3-4c1e-9a55-0c1b7e2f5a11" — The string "38e69665-58a3-4c1e-9a55-0c1b7e2f5a11" lacks its opening double quote: write "38e69665-58a3-4c1e-9a55-0c1b7e2f5a11".', { id: '38e69665-58a3-4c1e-9a55-0c1b7e2f5a11', n: 1 }],
  ['a UUID value\'s opening quote left out, pretty-printed', '{\n  "id": 38e69665-58a3-4c1e-9a55-0c1b7e2f5a11",\n  "n": 1\n}', '38e69665-58a3-4c1e-9a55-0c1b7e2f5a11" — The string "38e69665-58a3-4c1e-9a55-0c1b7e2f5a11" lacks its opening double quote: write "38e69665-58a3-4c1e-9a55-0c1b7e2f5a11".', { id: '38e69665-58a3-4c1e-9a55-0c1b7e2f5a11', n: 1 }],
  ['a time value\'s opening quote left out, on one line', '{"created_at": 2026-03-14T11:02:17Z", "n": 1}', '2026-03-14T11:02:17Z" — The string "2026-03-14T11:02:17Z" lacks its opening double quote: write "2026-03-14T11:02:17Z".', { created_at: '2026-03-14T11:02:17Z', n: 1 }],
  ['a time value\'s opening quote left out, pretty-printed', '{\n  "created_at": 2026-03-14T11:02:17Z",\n  "n": 1\n}', '2026-03-14T11:02:17Z" — The string "2026-03-14T11:02:17Z" lacks its opening double quote: write "2026-03-14T11:02:17Z".', { created_at: '2026-03-14T11:02:17Z', n: 1 }],
  ['an amount value\'s opening quote left out, a number and a word, on one line', '{"amount": 12.50 EUR", "n": 1}', '12.50 EUR" — The string "12.50 EUR" lacks its opening double quote: write "12.50 EUR".', { amount: '12.50 EUR', n: 1 }],
  ['an amount value\'s opening quote left out, a number and a word, pretty-printed', '{\n  "amount": 12.50 EUR",\n  "n": 1\n}', '12.50 EUR" — The string "12.50 EUR" lacks its opening double quote: write "12.50 EUR".', { amount: '12.50 EUR', n: 1 }],
  ['a string item\'s opening quote left out, the item a number and a word', '{"tags": ["a", 12.50 EUR", "d"], "n": 1}', '12.50 EUR" — The string "12.50 EUR" lacks its opening double quote: write "12.50 EUR".', { tags: ['a', '12.50 EUR', 'd'], n: 1 }],
  ['a path value\'s opening quote left out, its backslashes escaped, on one line', '{"path": C:\\\\orders\\\\in", "n": 1}', 'C:\\\\orders\\\\in" — The string "C:\\\\orders\\\\in" lacks its opening double quote: write "C:\\\\orders\\\\in".', { path: 'C:\\orders\\in', n: 1 }],
  ['a path value\'s opening quote left out, its backslashes escaped, pretty-printed', '{\n  "path": C:\\\\orders\\\\in",\n  "n": 1\n}', 'C:\\\\orders\\\\in" — The string "C:\\\\orders\\\\in" lacks its opening double quote: write "C:\\\\orders\\\\in".', { path: 'C:\\orders\\in', n: 1 }],
  ['a pattern value\'s opening quote left out, the pattern starting with "^" and holding an escape', '{"re": ^a\\\\d+$", "n": 1}', '^a\\\\d+$" — The string "^a\\\\d+$" lacks its opening double quote: write "^a\\\\d+$".', { re: '^a\\d+$', n: 1 }],
  ['a path value\'s opening quote left out, the path starting with "/"', '{"dir": /var/log", "n": 1}', '/var/log" — The string "/var/log" lacks its opening double quote: write "/var/log".', { dir: '/var/log', n: 1 }],
  ['a string value\'s opening quote left out, the value holding escaped quotes', '{"say": he said \\"hi\\"", "n": 1}', 'he said \\"hi\\"" — The string "he said \\"hi\\"" lacks its opening double quote: write "he said \\"hi\\"".', { say: 'he said "hi"', n: 1 }],
  ['a string value\'s opening quote left out, the value holding a unicode escape', '{"city": Malm\\u00f6", "n": 1}', 'Malm\\u00f6" — The string "Malm\\u00f6" lacks its opening double quote: write "Malm\\u00f6".', { city: 'Malmö', n: 1 }],
  ['a string item\'s opening quote left out, the item holding an escape', '{"paths": ["a", C:\\\\in", "d"], "n": 1}', 'C:\\\\in" — The string "C:\\\\in" lacks its opening double quote: write "C:\\\\in".', { paths: ['a', 'C:\\in', 'd'], n: 1 }],
  ['a phone number value\'s opening quote left out, starting with "+", on one line', '{"phone": +44 20 7946 0958", "n": 1}', '+44 20 7946 0958" — The string "+44 20 7946 0958" lacks its opening double quote: write "+44 20 7946 0958".', { phone: '+44 20 7946 0958', n: 1 }],
  ['a phone number value\'s opening quote left out, starting with "+", pretty-printed', '{\n  "phone": +44 20 7946 0958",\n  "n": 1\n}', '+44 20 7946 0958" — The string "+44 20 7946 0958" lacks its opening double quote: write "+44 20 7946 0958".', { phone: '+44 20 7946 0958', n: 1 }],
  ['a value\'s opening quote left out, starting with "+" and a number alone', '{"phone": +44", "n": 1}', '+44" — The string "+44" lacks its opening double quote: write "+44".', { phone: '+44', n: 1 }],
  ['an extension value\'s opening quote left out, starting with ".", on one line', '{"ext": .json", "n": 1}', '.json" — The string ".json" lacks its opening double quote: write ".json".', { ext: '.json', n: 1 }],
  ['an extension value\'s opening quote left out, starting with ".", pretty-printed', '{\n  "ext": .json",\n  "n": 1\n}', '.json" — The string ".json" lacks its opening double quote: write ".json".', { ext: '.json', n: 1 }],
  ['a string item\'s opening quote left out, starting with "."', '{"exts": [".a", .b", ".c"], "n": 1}', '.b" — The string ".b" lacks its opening double quote: write ".b".', { exts: ['.a', '.b', '.c'], n: 1 }],
  ['an inner object\'s first key without its colon and value, the next key after a comma on its line', '{"meta": {"k", "v": 1}, "n": 1}', '"k" — Expected \':\' after the property name "k".', { meta: { v: 1 }, n: 1 }],
  ['an inner object\'s first key without its colon and value, the object last in the envelope', '{"n": 1, "meta": {"k", "v": 1}}', '"k" — Expected \':\' after the property name "k".', { n: 1, meta: { v: 1 } }],
  ['an inner object\'s first key without its colon and value, two levels down', '{"data": {"meta": {"k", "v": 1}, "m": 2}, "n": 1}', '"k" — Expected \':\' after the property name "k".', { data: { meta: { v: 1 }, m: 2 }, n: 1 }],
  ['a "{" typed before a string value two levels down, on one line', '{"data": {"job": {"urn", "m": 2}, "n": 1}', '{ — Unexpected \'{\' before the string "urn"; remove it.', { data: { job: 'urn', m: 2 }, n: 1 }],
  ['a string item\'s opening quote left out, the item holding a colon', '{"tags": ["a", b:c", "d"], "n": 1}', 'b:c" — The string "b:c" lacks its opening double quote: write "b:c".', { tags: ['a', 'b:c', 'd'], n: 1 }],
  ['a key\'s closing quote left out before an array of strings', '{"tags: ["a", "b"], "n": 1}', '"tags — The property name "tags" lacks its closing double quote: write "tags".', { tags: ['a', 'b'], n: 1 }],
  ['a key\'s closing quote left out before an array of strings, pretty-printed', '{\n  "tags: ["a", "b"],\n  "n": 1\n}', '"tags — The property name "tags" lacks its closing double quote: write "tags".', { tags: ['a', 'b'], n: 1 }],
  ['a key\'s closing quote left out before an object', '{"data: {"a": 1}, "n": 1}', '"data — The property name "data" lacks its closing double quote: write "data".', { data: { a: 1 }, n: 1 }],
  ['a key\'s closing quote left out before an array of objects', '{"items: [{"sku": "MUG"}], "n": 1}', '"items — The property name "items" lacks its closing double quote: write "items".', { items: [{ sku: 'MUG' }], n: 1 }],
  ['a key\'s closing quote left out in an inner object', '{"data": {"tags: ["a"], "b": 2}, "n": 1}', '"tags — The property name "tags" lacks its closing double quote: write "tags".', { data: { tags: ['a'], b: 2 }, n: 1 }],
  ['a key\'s closing quote left out before an array of numbers, on one line', '{"tags: [1, 2], "n": 1}', '"tags — The property name "tags" lacks its closing double quote: write "tags".', { tags: [1, 2], n: 1 }],
  ['a key\'s closing quote left out before an empty object, on one line', '{"data: {}, "n": 1}', '"data — The property name "data" lacks its closing double quote: write "data".', { data: {}, n: 1 }],
  ['a key\'s closing quote left out, its array on the line below', '{\n  "tags:\n    ["a", "b"],\n  "n": 1\n}', '"tags — The property name "tags" lacks its closing double quote: write "tags".', { tags: ['a', 'b'], n: 1 }],
  ['a key\'s closing quote left out, its string on the line below', '{\n  "queue:\n    "orders",\n  "n": 1\n}', '"queue — The property name "queue" lacks its closing double quote: write "queue".', { queue: 'orders', n: 1 }],
  ['a colon after an array item, before its comma', '{"tags": ["a":, "b"], "n": 1}', ': — Arrays hold values, not key: value pairs; write an object {…} or remove `:`.', { tags: ['a', 'b'], n: 1 }],
  ['a path value\'s opening quote left out, its backslashes written alone, in an inner object', '{"data": {"path": C:\\orders\\in", "n": 1}, "m": 2}', 'C:\\orders\\in" — The string "C:\\orders\\in" lacks its opening double quote, and JSON escapes a backslash as \\\\: write "C:\\\\orders\\\\in".', { data: { path: 'C:\\orders\\in', n: 1 }, m: 2 }],
  ['a path value\'s opening quote left out, its backslashes written alone, pretty-printed', '{\n  "path": C:\\orders\\in",\n  "n": 1\n}', 'C:\\orders\\in" — The string "C:\\orders\\in" lacks its opening double quote, and JSON escapes a backslash as \\\\: write "C:\\\\orders\\\\in".', { path: 'C:\\orders\\in', n: 1 }],
  ['a path item\'s opening quote left out, starting with a backslash written alone', '{"paths": ["a", \\srv\\in", "d"], "n": 1}', '\\srv\\in" — The string "\\srv\\in" lacks its opening double quote, and JSON escapes a backslash as \\\\: write "\\\\srv\\\\in".', { paths: ['a', '\\srv\\in', 'd'], n: 1 }],
  ['a value\'s opening quote left out, a backslash written alone beside what reads as an escape: a pasted path, every backslash its own', '{"say": a\\tb\\qc", "n": 1}', 'a\\tb\\qc" — The string "a\\tb\\qc" lacks its opening double quote, and JSON escapes a backslash as \\\\: write "a\\\\tb\\\\qc".', { say: 'a\\tb\\qc', n: 1 }],
  ['a path value\'s opening quote left out, "\\n" in it read as a backslash and an n', String.raw`{"path": C:\orders\new", "n": 1}`, String.raw`C:\orders\new" — The string "C:\orders\new" lacks its opening double quote, and JSON escapes a backslash as \\: write "C:\\orders\\new".`, { path: 'C:\\orders\\new', n: 1 }],
  ['a path value\'s opening quote left out, "\\t" in it read as a backslash and a t', String.raw`{"path": C:\temp\x", "n": 1}`, String.raw`C:\temp\x" — The string "C:\temp\x" lacks its opening double quote, and JSON escapes a backslash as \\: write "C:\\temp\\x".`, { path: 'C:\\temp\\x', n: 1 }],
  ['a path value\'s opening quote left out, ending in a backslash', String.raw`{"path": C:\orders\in\", "b": 3}`, String.raw`C:\orders\in\" — The string "C:\orders\in\" lacks its opening double quote, and JSON escapes a backslash as \\: write "C:\\orders\\in\\".`, { path: 'C:\\orders\\in\\', b: 3 }],
  ['a path value\'s opening quote left out, ending in a backslash, pretty-printed', '{\r\n  "path": C:\\orders\\in\\",\r\n  "b": 3\r\n}', String.raw`C:\orders\in\" — The string "C:\orders\in\" lacks its opening double quote, and JSON escapes a backslash as \\: write "C:\\orders\\in\\".`, { path: 'C:\\orders\\in\\', b: 3 }],
  ['a quoted path ending in a backslash', String.raw`{"path": "C:\orders\in\", "b": 3}`, String.raw`"C:\orders\in\" — Invalid escapes '\o', '\i' and 1 more in this string: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "C:\\orders\\in\\".`, { path: 'C:\\orders\\in\\', b: 3 }],
  ['a quoted path, "\\t" in it read as a backslash and a t', String.raw`{"path": "C:\temp\x", "n": 1}`, String.raw`"C:\temp\x" — Invalid escape '\x' in this string: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "C:\\temp\\x".`, { path: 'C:\\temp\\x', n: 1 }],
  ['a quoted path, "\\n" in it read as a backslash and an n', String.raw`{"path": "C:\orders\new\in", "n": 1}`, String.raw`"C:\orders\new\in" — Invalid escapes '\o' and '\i' in this string: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "C:\\orders\\new\\in".`, { path: 'C:\\orders\\new\\in', n: 1 }],
  ['a stray quote after a number value, in an inner object', '{"data": {"a": 1042", "n": 1}, "m": 2}', '" — Unexpected \'"\' after the number 1042; remove it, or write "1042" if the value is a string.', { data: { a: 1042, n: 1 }, m: 2 }],
  ['a stray quote after a number value, pretty-printed', '{\n  "a": -10.5e3",\n  "n": 1\n}', '" — Unexpected \'"\' after the number -10.5e3; remove it, or write "-10.5e3" if the value is a string.', { a: -10500, n: 1 }],
  ['a stray quote after the last number value of an object', '{"data": {"n": 1, "a": 7"}, "m": 2}', '" — Unexpected \'"\' after the number 7; remove it, or write "7" if the value is a string.', { data: { n: 1, a: 7 }, m: 2 }],
  ['a stray quote after a number item', '{"ids": [1042", 7], "n": 1}', '" — Unexpected \'"\' after the number 1042; remove it, or write "1042" if the value is a string.', { ids: [1042, 7], n: 1 }],
  ['a stray quote after a number value and a space, before "}"', '{"data": {"a": 1042 "}, "m": 2}', '" — Unexpected \'"\' after the number 1042; remove it, or write "1042" if the value is a string.', { data: { a: 1042 }, m: 2 }],
  ['a stray quote after a number item and a space', '{"ids": [1042 ", 7], "n": 1}', '" — Unexpected \'"\' after the number 1042; remove it, or write "1042" if the value is a string.', { ids: [1042, 7], n: 1 }],
  ['a stray quote after null and a space', '{"a": null ",\n  "n": 1}', '" — Unexpected \'"\' after null; remove it, or write "null" if the value is a string.', { a: null, n: 1 }],
  ['a stray quote after true', '{"data": {"a": true", "n": 1}, "m": 2}', '" — Unexpected \'"\' after true; remove it, or write "true" if the value is a string.', { data: { a: true, n: 1 }, m: 2 }],
  ['a stray quote after null', '{"a": null",\n  "n": 1}', '" — Unexpected \'"\' after null; remove it, or write "null" if the value is a string.', { a: null, n: 1 }],
  ['a stray quote after false at its line\'s end', '{"a": false"\n}', '" — Unexpected \'"\' after false; remove it, or write "false" if the value is a string.', { a: false }],
  ['a stray quote after a literal item', '{"flags": [true", null], "n": 1}', '" — Unexpected \'"\' after true; remove it, or write "true" if the value is a string.', { flags: [true, null], n: 1 }],
  ['a quoted path with its backslashes alone', String.raw`{"path": "C:\orders\in", "n": 1}`, String.raw`"C:\orders\in" — Invalid escapes '\o' and '\i' in this string: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "C:\\orders\\in".`, { path: 'C:\\orders\\in', n: 1 }],
  ['a quoted key with its backslashes alone', String.raw`{"C:\orders\in": 1, "n": 1}`, String.raw`"C:\orders\in" — Invalid escapes '\o' and '\i' in this property name: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "C:\\orders\\in".`, { 'C:\\orders\\in': 1, n: 1 }],
  ['a quoted path with three backslashes alone beside an escaped one', String.raw`{"path": "D:\queue\x\\y\z", "n": 1}`, String.raw`"D:\queue\x\\y\z" — Invalid escapes '\q', '\x' and 1 more in this string: JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX, and writes a backslash as \\: write "D:\\queue\\x\\y\\z".`, { path: 'D:\\queue\\x\\y\\z', n: 1 }],
  ['a quoted string with one backslash alone', String.raw`{"path": "C:\orders", "n": 1}`, String.raw`\o — Invalid escape '\o'; JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX.`, { path: 'C:\\orders', n: 1 }],
];

for (const [pattern, text, finding, meant] of CASES) {
  test(`${pattern}: one finding, and the rest read as written`, () => {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => `${text.slice(problem.offset, problem.end)} — ${problem.message}`), [finding], parser);
      assert.deepEqual(toJsValue(doc.root!), meant, parser);
    }
  });
}

test('a key without its colon and value before the next key is still said so, not read as a comma typed for a colon', () => {
  for (const doc of [parseText('{"queue", "n": 1}'), referenceParse('{"queue", "n": 1}')]) {
    assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), ['Expected \':\' after the property name "queue".']);
  }
});

test('a value missing after a colon is still said so, not read as a comma typed twice', () => {
  for (const text of ['{"queue":, "n": 1}', '{"queue":,\n  "n": 1}']) {
    for (const doc of [parseText(text), referenceParse(text)]) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), ['Expected a value for "queue".']);
      assert.deepEqual(toJsValue(doc.root!), { n: 1 });
    }
  }
});

test('a "}" that closed an inner object, followed by keys indented as that object\'s, is not said to be stray', () => {
  // The stray "}" came before ("a": 1 }): the one the envelope closed on is the object's own.
  const text = '{\n  "data": {\n    "a": 1 },\n    "b": 2\n  },\n  "meta": 1\n}';
  for (const doc of [parseText(text), referenceParse(text)]) {
    assert.ok(!doc.syntaxProblems.some((problem) => problem.message.startsWith("Unexpected '}'")), JSON.stringify(doc.syntaxProblems));
  }
});

test('an inner object closed where its "}" goes, then a key without a comma: the comma is what is missing', () => {
  for (const text of ['{\n  "data": {\n    "a": 1\n  }  "b": 2\n}', '{\n  "data": {"a": 1}\n  "b": 2\n}']) {
    for (const doc of [parseText(text), referenceParse(text)]) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), ["Expected ',' between properties."], text);
      assert.deepEqual(toJsValue(doc.root!), { data: { a: 1 }, b: 2 });
    }
  }
});

test('an inner object whose first key lacks its colon, a comma after it, keeps its keys, pretty-printed or on one line: the "{" is not said to be stray', () => {
  // A key typed without its colon (or its value deleted) before the object's other keys, on the lines after it.
  for (const text of ['{\n  "job": "a",\n  "meta": {\n    "trace_id",\n    "v": 1\n  }\n}', '{\n  "job": "a",\n  "meta": {"trace_id",\n    "v": 1\n  },\n  "n": 2\n}', '{\n  "job": "a",\n  "meta": {"trace_id", "v": 1},\n  "n": 2\n}', '{"job": "a", "meta": {"trace_id", "v": 1}, "n": 2}']) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), ['Expected \':\' after the property name "trace_id".'], `${parser} ${text}`);
      const root = doc.root!;
      assert.ok(root.kind === 'object');
      const meta = root.properties.find((property) => property.key === 'meta')?.value;
      assert.ok(meta?.kind === 'object', `${parser}: meta is ${meta?.kind}`);
      assert.deepEqual(meta.properties.map((property) => property.key), ['trace_id', 'v'], parser);
      assert.ok(!root.properties.some((property) => property.key === 'v'), parser);
    }
  }
});

test('a number that starts a string without its opening quote only when a quote ends the value on its line: a malformed number alone keeps its finding', () => {
  const cases: [string, string[]][] = [
    ['{"id": 38e69665-58a3, "n": 1}', ["Invalid number '38e69665-58a3': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex."]],
    ['{\n  "created_at": 2026-03-14T11,\n  "n": 1\n}', ["Invalid number '2026-03-14T11': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex."]],
    ['{"amount": 12.50 EUR, "n": 1}', ["Unexpected word 'EUR' after the value; remove it."]],
    ['{"phone": +44, "n": 1}', ["Invalid number '+44': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex."]],
    ['{"ext": .5, "n": 1}', ["Invalid number '.5': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex."]],
    ['{"amount": 12.50 EUR "x", "n": 1}', ["Expected ',' between properties.", "Property names must be double-quoted: write \"EUR\".", "Expected ':' after the property name \"EUR\"."]],
  ];
  for (const [text, messages] of cases) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(doc.syntaxProblems.map((problem) => problem.message), messages, `${parser} ${text}`);
    }
  }
});

test('a number, a tab, then a string without its opening quote: no finding advises a string holding the raw tab, and one holding an escape does not stop the parse', () => {
  // A raw tab is no character a string may hold: the number stands, and what follows the tab is read on its own.
  for (const text of ['{"amount": 12.50\tEUR", "n": 1}', '{"amount": 12.50\tEUR\\\\n", "n": 1}', '[1\tx\\\\y", 2]']) {
    const fast = parseText(text);
    const reference = referenceParse(text);
    assert.deepEqual(fast.syntaxProblems.map((problem) => problem.message), reference.syntaxProblems.map((problem) => problem.message), text);
    assert.deepEqual(toJsValue(fast.root!), toJsValue(reference.root!), text);
    assert.ok(!fast.syntaxProblems.some((problem) => problem.message.includes('\t')), JSON.stringify(fast.syntaxProblems));
  }
});

test('the second backslash of "\\\\" starts no string without its opening quote: both parsers read "\\\\"k"," as two stray backslashes and the string "k"', () => {
  // The first backslash, no value, is a finding of its own; the pair escapes one backslash, and no string starts within it.
  for (const text of ['["a", \\\\"k", "b"]', '["a", \\\\\\\\"k", "b"]']) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      assert.deepEqual(toJsValue(doc.root!), ['a', 'k', 'b'], `${parser} ${text}`);
      assert.ok(doc.syntaxProblems.every((problem) => problem.message === "Expected a JSON value, found '\\'."), `${parser} ${JSON.stringify(doc.syntaxProblems)}`);
    }
  }
});

test('a word after an array item and a space may be the next item: the missing comma is said', () => {
  const doc = parseText('["a" b]');
  assert.equal(doc.syntaxProblems[0].message, "Expected ',' between array values.");
});

test('each pattern\'s finding, where it has one repair, is repaired into the value the text reads as; where it has two, each leaves JSON', () => {
  const broken: string[] = [];
  let repaired = 0;
  for (const [pattern, text, , value] of CASES) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const repairs = doc.syntaxProblems[0]?.repairs ?? [];
      for (const repair of repairs) {
        const fixed = text.slice(0, repair.offset) + repair.text + text.slice(repair.end);
        const left = parseText(fixed).syntaxProblems.map((problem) => problem.message);
        if (left.length > 0) broken.push(`${parser}, ${pattern}, "${repair.title}": ${left.join(' | ')}`);
        else if (repairs.length === 1) {
          if (JSON.stringify(JSON.parse(fixed)) !== JSON.stringify(value)) broken.push(`${parser}, ${pattern}, "${repair.title}": reads ${fixed}`);
          repaired++;
        }
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(repaired > CASES.length, `${repaired} repaired`);
});

const ENVELOPE = `{
  "job": "urn:babel:orders:created",
  "data": {
    "order_id": 1042,
    "currency": "EUR",
    "total": "12.50 EUR",
    "path": "C:\\\\orders\\\\in",
    "dir": "C:\\\\temp\\\\new\\\\in",
    "root": "C:\\\\orders\\\\",
    "phone": "+44 20 7946 0958",
    "gift": false,
    "note": null,
    "flags": [true, null],
    "files": [".json", "^a\\\\d+$"],
    "tags": ["a", "b", "2b"],
    "items": [
      { "sku": "MUG", "quantity": 2 },
      { "sku": "BEANS", "quantity": 1 }
    ]
  },
  "meta": { "id": "38e69665-58a3-4c1e-9a55-0c1b7e2f5a11", "created_at": "2026-03-14T11:02:17Z", "queue": "orders" },
  "attempts": 0
}`;

/** Whether an array holds `node`, at any depth (a "]" typed there closes that array, as written). */
function hasArrayAbove(node: ValueNode): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.kind === 'array') return true;
  return false;
}

/** A deterministic generator of letters (a linear congruential one), so every run tries the same mistakes. */
function letters(seed: number): () => string {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return String.fromCharCode(0x61 + ((state >>> 16) % 26));
  };
}

/**
 * One mistake of each fixed pattern at every place in ENVELOPE it fits: a letter typed before
 * each key (at its line's start and against its quote), between each key and its colon, against
 * each value's start and end; each colon typed twice; a comma after each colon; each comma
 * between array items typed as a colon, a colon after an item; each colon typed as a comma (or a brace or "]" before a scalar), and a
 * comma, quote or bracket typed before it; a "}" or "]" before each value, a "{" before each string value or item a comma follows, a
 * "}" after each comma between keys, and for each comma that ends a line between keys; a "]" for each comma that ends a line
 * after a scalar, a letter after a string (outside arrays); a "}" after
 * each "{" that ends its line; each key's closing quote and each string's opening quote left out;
 * each scalar's colon and value left out, its key followed by the comma before the next key; a
 * string holding escaped backslashes written with them alone, without its opening quote or between its quotes; a quote after each number.
 * Each: `[what, text, how wide its finding may be]` (a string without its opening quote is one
 * finding as wide as the string; the rest are no wider than 12 characters).
 */
function mistakes(): [string, string, number?][] {
  const out: [string, string, number?][] = [];
  const letter = letters(42);
  const at = (pos: number, insert: string, remove = 0) => ENVELOPE.slice(0, pos) + insert + ENVELOPE.slice(pos + remove);
  const doc = parseText(ENVELOPE);
  assert.deepEqual(doc.syntaxProblems, []);
  const visit = [doc.root!];
  while (visit.length > 0) {
    const node = visit.pop()!;
    if (node.kind === 'object') {
      for (const property of node.properties) {
        const lineStart = ENVELOPE.lastIndexOf('\n', property.keyOffset) + 1;
        const value = property.value!;
        out.push([`letter before the key ${property.key} at the line's start`, at(lineStart, letter())]);
        out.push([`letter and space before the key ${property.key}`, at(property.keyOffset, `${letter()} `)]);
        out.push([`letter between the key ${property.key} and its colon`, at(property.keyEnd, letter())]);
        out.push([`colon twice after ${property.key}`, at(property.colonOffset, ':')]);
        out.push([`comma for the colon after ${property.key}`, at(property.colonOffset, ',', 1)]);
        if (value.kind !== 'object' && value.kind !== 'array') for (const brace of ['{', '}', ']']) out.push([`${brace} for the colon after ${property.key}`, at(property.colonOffset, brace, 1)]);
        for (const stray of [',', '"', '{', '}', '[', ']']) out.push([`${stray} before the colon after ${property.key}`, at(property.colonOffset, stray)]);
        // A string value last in its object, after such a comma, reads as the next key typed up to its
        // name (`"job": ,"meta"}`, a property still waiting for its value): two gaps, two findings.
        const last = property === node.properties[node.properties.length - 1];
        if (value.kind !== 'string' || !last) out.push([`comma after the colon of ${property.key}`, at(property.colonOffset + 1, ',')]);
        if (value.kind === 'string') out.push([`letter against the value of ${property.key}`, at(value.offset, letter())]);
        // The finding is the value itself, as wide as it is written.
        if (value.kind === 'string') out.push([`opening quote of the value of ${property.key} left out`, at(value.offset, '', 1), value.end - value.offset - 1]);
        // A path pasted as it is, its backslashes alone, and the opening quote left out: one mistake as typed.
        const written = ENVELOPE.slice(value.offset + 1, value.end);
        if (value.kind === 'string' && written.includes('\\\\')) {
          const alone = written.replaceAll('\\\\', '\\');
          out.push([`opening quote of the value of ${property.key} left out, its backslashes alone`, at(value.offset, alone, value.end - value.offset), alone.length]);
          // The same path pasted between its quotes: one finding on the string, however many backslashes it holds.
          out.push([`value of ${property.key} with its backslashes alone`, at(value.offset + 1, alone.slice(0, -1), value.end - value.offset - 2), alone.length + 1]);
        }
        if (value.kind === 'number' || value.kind === 'boolean' || value.kind === 'null') out.push([`quote after the ${value.kind} value of ${property.key}`, at(value.end, '"')]);
        if (value.kind === 'number' || value.kind === 'boolean' || value.kind === 'null') out.push([`space and quote after the ${value.kind} value of ${property.key}`, at(value.end, ' "')]);
        out.push([`closing quote of the key ${property.key} left out`, at(property.keyEnd - 1, '', 1)]);
        if (value.kind === 'object' || value.kind === 'array') out.push([`letter before the value of ${property.key}`, at(value.offset, `${letter()} `)]);
        if (value.kind === 'string' || value.kind === 'number') {
          out.push([`letter after the value of ${property.key}`, at(value.end, letter())]);
          out.push([`space and letter after the value of ${property.key}`, at(value.end, ` ${letter()}`)]);
        }
        out.push([`"}" before the value of ${property.key}`, at(value.offset, '} ')]);
        if (value.kind === 'string' && property !== node.properties[node.properties.length - 1]) out.push([`"{" before the value of ${property.key}`, at(value.offset, '{')]);
        out.push([`"]" before the value of ${property.key}`, at(value.offset, ']')]);
        const comma = ENVELOPE.indexOf(',', value.end);
        if (property !== node.properties[node.properties.length - 1]) {
          out.push([`"}" after the comma after ${property.key}`, at(comma + 1, ' }')]);
          if (ENVELOPE[comma + 1] === '\n') out.push([`"}" for the comma after ${property.key}`, at(comma, '}', 1)]);
        }
        if (property !== node.properties[node.properties.length - 1] && ENVELOPE[comma + 1] === '\n' && (value.kind === 'string' || value.kind === 'number') && !hasArrayAbove(node)) {
          // After a number the letter is the number's (`1042z`, an invalid number), and the comma's absence a finding of its own.
          if (value.kind === 'string') out.push([`letter for the comma after ${property.key}`, at(comma, letter(), 1)]);
          out.push([`"]" for the comma after ${property.key}`, at(comma, ']', 1)]);
        }
        if (value.kind === 'object' && ENVELOPE[value.offset + 1] === '\n') out.push([`"}" after the "{" of ${property.key}`, at(value.offset + 1, '}')]);
        // A key whose colon and scalar value are left out (or not typed yet) before the next key: `{ "id", "created_at": …`.
        if (!last && value.kind !== 'object' && value.kind !== 'array') out.push([`colon and value of ${property.key} left out`, at(property.keyEnd, '', value.end - property.keyEnd)]);
        visit.push(value);
      }
    } else if (node.kind === 'array') {
      for (let i = 0; i < node.items.length; i++) {
        const item = node.items[i];
        if (i > 0) {
          const comma = ENVELOPE.lastIndexOf(',', item.offset);
          out.push([`colon for the comma before item ${i}`, at(comma, ':', 1)]);
        }
        if (item.kind === 'string') out.push([`letter after item ${i}`, at(item.end, letter())]);
        if (item.kind === 'string') out.push([`opening quote of item ${i} left out`, at(item.offset, '', 1)]);
        if (item.kind === 'number' || item.kind === 'boolean' || item.kind === 'null') out.push([`quote after item ${i}`, at(item.end, '"')]);
        const written = ENVELOPE.slice(item.offset + 1, item.end);
        if (item.kind === 'string' && written.includes('\\\\')) {
          const alone = written.replaceAll('\\\\', '\\');
          out.push([`opening quote of item ${i} left out, its backslashes alone`, at(item.offset, alone, item.end - item.offset), alone.length]);
          out.push([`item ${i} with its backslashes alone`, at(item.offset + 1, alone.slice(0, -1), item.end - item.offset - 2), alone.length + 1]);
        }
        if (item.kind === 'string' && i < node.items.length - 1) {
          out.push([`colon after item ${i}`, at(item.end, ':')]);
          out.push([`"{" before item ${i}`, at(item.offset, '{')]);
        }
        visit.push(item);
      }
    }
  }
  return out;
}

test('every fixed mistake, at every place it fits in an envelope, is one finding, no wider than a token (12 characters here) and on one line, that leaves the rest of the envelope read', () => {
  const cases = mistakes();
  assert.ok(cases.length > 80, `${cases.length} mistakes`);
  const cascades: string[] = [];
  for (const [what, text, width = 12] of cases) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const problems = doc.syntaxProblems;
      const wide = problems.some((problem) => /[\n\r]/.test(text.slice(problem.offset, problem.end)) || problem.end - problem.offset > width);
      const envelope = toJsValue(doc.root!) as Record<string, unknown> | undefined;
      const keys = envelope && typeof envelope === 'object' ? Object.keys(envelope) : [];
      if (problems.length !== 1 || wide || !keys.includes('attempts')) cascades.push(`${parser}, ${what}: ${problems.map((problem) => problem.message).join(' | ')}`);
    }
  }
  assert.deepEqual(cascades, []);
});

test('every fixed mistake whose one finding has repairs: each leaves JSON without a syntax problem, the one repair the envelope meant (of two, one does); none lacks a repair but where the message offers no one edit', () => {
  const broken: string[] = [];
  const unrepaired = new Set<string>();
  const envelope = JSON.stringify(JSON.parse(ENVELOPE));
  let repaired = 0;
  for (const [what, text] of mistakes()) {
    for (const [parser, doc] of [['fast', parseText(text)], ['reference', referenceParse(text)]] as const) {
      const [problem] = doc.syntaxProblems;
      if (doc.syntaxProblems.length !== 1 || !problem.repairs) {
        // What was meant is unknown only where the message offers no one edit: a letter in a number, a key and value typed into an array, a colon and value left out.
        if (!/^(?:Invalid number |Arrays hold values|Expected ':' after the property name "[^"]*"\.$)/.test(problem?.message ?? '')) unrepaired.add(`${parser}, ${what}: ${problem?.message}`);
        continue;
      }
      const meant: boolean[] = [];
      for (const repair of problem.repairs) {
        const fixed = text.slice(0, repair.offset) + repair.text + text.slice(repair.end);
        const left = parseText(fixed).syntaxProblems;
        let parses = true;
        try {
          JSON.parse(fixed);
        } catch {
          parses = false;
        }
        if (left.length > 0 || !parses) broken.push(`${parser}, ${what}, "${repair.title}": ${left.map((p) => p.message).join(' | ') || 'JSON.parse refuses it'}`);
        else meant.push(JSON.stringify(JSON.parse(fixed)) === envelope);
      }
      // The one repair gives the envelope the mistake was made in; of two, one does (the other reads the value otherwise).
      if (!meant.some(Boolean) || (problem.repairs.length === 1 && !meant[0])) broken.push(`${parser}, ${what}: no repair gives the envelope back`);
      if (problem.repairs.length === 1) repaired++;
    }
  }
  assert.deepEqual(broken, []);
  assert.deepEqual([...unrepaired], []);
  // Most of these mistakes have their one repair (the stray quote after a number has two).
  assert.ok(repaired > 200, `${repaired} repaired`);
});
