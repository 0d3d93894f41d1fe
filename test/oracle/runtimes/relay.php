<?php
// The PHP core's relay as the facts describe it (part 1, §3): json_decode($raw, true), then
// json_encode with THROW_ON_ERROR | UNESCAPED_UNICODE | UNESCAPED_SLASHES and
// serialize_precision = -1. One body per line of stdin, base64; one answer per line of stdout:
// "ok <base64>", "decode <why>" or "encode <why>".
ini_set('serialize_precision', '-1');
$in = fopen('php://stdin', 'r');
$out = fopen('php://stdout', 'w');
while (($line = fgets($in)) !== false) {
    $line = trim($line);
    if ($line === '') continue;
    $raw = base64_decode($line);
    $value = json_decode($raw, true);
    if ($value === null && json_last_error() !== JSON_ERROR_NONE) {
        fwrite($out, 'decode ' . json_last_error_msg() . "\n");
        continue;
    }
    try {
        $body = json_encode($value, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
    } catch (JsonException $error) {
        fwrite($out, 'encode ' . $error->getMessage() . "\n");
        continue;
    }
    fwrite($out, 'ok ' . base64_encode($body) . "\n");
}
