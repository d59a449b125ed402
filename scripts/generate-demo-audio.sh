#!/usr/bin/env bash
# Generates the demo catalogue's audio from seed/catalogue.json: each script is spoken by
# espeak-ng (paragraph breaks become 2 s pauses) over a soft ambient bed made with sox, then
# encoded small (MP3 48 kb/s mono; one item as AAC in .m4a). Idempotent: rewrites every file.
# Needs: apt-get install -y espeak-ng sox libsox-fmt-mp3 ffmpeg
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in espeak-ng sox soxi ffmpeg node; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Missing $tool. Install with: apt-get install -y espeak-ng sox libsox-fmt-mp3 ffmpeg" >&2
    exit 1
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p seed/audio

# One line per item: audioFile<TAB>title<TAB>primary category; the SSML goes to $work/<n>.ssml.
node -e '
const fs = require("fs");
const items = JSON.parse(fs.readFileSync("seed/catalogue.json", "utf8"));
const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
items.forEach((item, n) => {
  const paragraphs = item.script.split(/\n\s*\n/).map((p) => esc(p.replace(/\s+/g, " ").trim()));
  fs.writeFileSync(`${process.argv[1]}/${n}.ssml`, `<speak>${paragraphs.join("<break time=\"2s\"/>")}</speak>`);
  console.log([n, item.audioFile, item.title, item.categories[0]].join("\t"));
});
' "$work" > "$work/index.tsv"

# A slightly different two-tone pad per category, so the collection doesn't all hum alike.
pad_freqs() {
  case "$1" in
    morning) echo "196.00 293.66" ;;
    sleeping) echo "130.81 196.00" ;;
    anxiety|emotional-regulation|emotional-wellbeing) echo "164.81 246.94" ;;
    happiness) echo "220.00 329.63" ;;
    journal) echo "146.83 220.00" ;;
    significant-chapters) echo "185.00 277.18" ;;
    *) echo "174.61 261.63" ;;
  esac
}

while IFS=$'\t' read -r n file title category <&3; do
  d="$work/$n"
  mkdir -p "$d"
  espeak-ng -m -v en-gb+f3 -s 125 -p 35 -a 120 -w "$d/voice.wav" -f "$work/$n.ssml"
  voice_len=$(soxi -D "$d/voice.wav")
  len=$(node -e "console.log((Number(process.argv[1]) + 4).toFixed(2))" "$voice_len")
  read -r f1 f2 <<<"$(pad_freqs "$category")"
  sox -V1 -n -r 44100 -c 1 "$d/noise.wav" synth "$len" pinknoise lowpass 500 vol 0.06 fade q 3 "$len" 3
  sox -V1 -r 44100 -c 2 -n "$d/pad.wav" synth "$len" sine "$f1" sine "$f2" remix 1,2 tremolo 0.15 40 vol 0.05 fade q 4 "$len" 4
  sox -V1 "$d/pad.wav" -c 1 "$d/pad-mono.wav"
  sox -V1 "$d/voice.wav" -r 44100 -c 1 "$d/voice44.wav" pad 1.5 0
  sox -V1 -m "$d/voice44.wav" "$d/noise.wav" "$d/pad-mono.wav" "$d/mix.wav" trim 0 "$len" fade q 0 "$len" 2 norm -1
  if [[ "$file" == *.m4a ]]; then
    ffmpeg -nostdin -y -loglevel error -i "$d/mix.wav" -ac 1 -c:a aac -b:a 64k -metadata title="$title" -metadata artist="Harbour Mind" "seed/audio/$file"
  else
    ffmpeg -nostdin -y -loglevel error -i "$d/mix.wav" -ac 1 -c:a libmp3lame -b:a 48k -id3v2_version 3 -metadata title="$title" -metadata artist="Harbour Mind" "seed/audio/$file"
  fi
  printf '%-40s %-22s %6.1fs\n' "$file" "$category" "$len"
done 3< "$work/index.tsv"

echo "Done: $(ls seed/audio | wc -l) files, $(du -sh seed/audio | cut -f1)"
