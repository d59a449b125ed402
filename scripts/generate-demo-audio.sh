#!/usr/bin/env bash
# Generates the demo catalogue's audio from seed/catalogue.json: each paragraph of a script is
# spoken by espeak-ng, with a rest between paragraphs, over a soft ambient bed made with sox, then
# encoded small (MP3 48 kb/s mono, 32 kb/s for the long ones; one item as AAC in .m4a).
# Rests are 2 s, or longer for an item with `lengthSeconds`: its rests share out the time its title
# promises ("Five-Minute Sunrise" lasts five minutes), as a guided meditation's silences do.
#
#   bash scripts/generate-demo-audio.sh                       every file
#   bash scripts/generate-demo-audio.sh five-minute-sunrise.mp3 ...   only these (the bed is random
#                                                              noise, so a rewrite changes every byte)
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

# One line per item: n<TAB>audioFile<TAB>title<TAB>primary category<TAB>paragraphs<TAB>lengthSeconds (0: none);
# paragraph p's text goes to $work/<n>.<p>.txt.
node -e '
const fs = require("fs");
const [dir, ...only] = process.argv.slice(1);
const items = JSON.parse(fs.readFileSync("seed/catalogue.json", "utf8"));
items.forEach((item, n) => {
  if (only.length > 0 && !only.includes(item.audioFile)) return;
  const paragraphs = item.script.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, " ").trim());
  paragraphs.forEach((text, p) => fs.writeFileSync(`${dir}/${n}.${p}.txt`, text));
  console.log([n, item.audioFile, item.title, item.categories[0], paragraphs.length, item.lengthSeconds ?? 0].join("\t"));
});
' "$work" "$@" > "$work/index.tsv"

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

LEAD=1.5   # seconds of bed before the voice
TAIL=4     # seconds of bed after it
REST=2     # the shortest rest between paragraphs

while IFS=$'\t' read -r n file title category paragraphs target <&3; do
  d="$work/$n"
  mkdir -p "$d"
  voice_total=0
  for ((p = 0; p < paragraphs; p++)); do
    espeak-ng -v en-gb+f3 -s 125 -p 35 -a 120 -w "$d/p$p.wav" -f "$work/$n.$p.txt"
    sox -V1 "$d/p$p.wav" -r 44100 -c 1 "$d/p$p-44.wav"
    voice_total=$(node -e "console.log(Number(process.argv[1]) + Number(process.argv[2]))" "$voice_total" "$(soxi -D "$d/p$p-44.wav")")
  done
  # The rest between paragraphs: 2 s, or what shares out the promised length.
  rest=$(node -e "
    const [target, voice, n, lead, tail, min] = process.argv.slice(1).map(Number);
    const breaks = Math.max(1, n - 1);
    console.log(Math.max(min, target > 0 ? (target - lead - tail - voice) / breaks : min).toFixed(2));
  " "$target" "$voice_total" "$paragraphs" "$LEAD" "$TAIL" "$REST")
  sox -V1 -n -r 44100 -c 1 "$d/rest.wav" trim 0 "$rest"
  parts=()
  for ((p = 0; p < paragraphs; p++)); do
    parts+=("$d/p$p-44.wav")
    if ((p < paragraphs - 1)); then parts+=("$d/rest.wav"); fi
  done
  sox -V1 "${parts[@]}" "$d/voice44.wav" pad "$LEAD" 0
  len=$(node -e "console.log((Number(process.argv[1]) + Number(process.argv[2])).toFixed(2))" "$(soxi -D "$d/voice44.wav")" "$TAIL")
  read -r f1 f2 <<<"$(pad_freqs "$category")"
  sox -V1 -n -r 44100 -c 1 "$d/noise.wav" synth "$len" pinknoise lowpass 500 vol 0.06 fade q 3 "$len" 3
  sox -V1 -r 44100 -c 2 -n "$d/pad.wav" synth "$len" sine "$f1" sine "$f2" remix 1,2 tremolo 0.15 40 vol 0.05 fade q 4 "$len" 4
  sox -V1 "$d/pad.wav" -c 1 "$d/pad-mono.wav"
  sox -V1 -m "$d/voice44.wav" "$d/noise.wav" "$d/pad-mono.wav" "$d/mix.wav" trim 0 "$len" fade q 0 "$len" 2 norm -1
  # Long tracks are mostly rest and bed: a lower rate keeps the repository small.
  rate=$(node -e "console.log(Number(process.argv[1]) > 180 ? '32k' : '48k')" "$len")
  if [[ "$file" == *.m4a ]]; then
    ffmpeg -nostdin -y -loglevel error -i "$d/mix.wav" -ac 1 -c:a aac -b:a 64k -metadata title="$title" -metadata artist="Harbour Mind" "seed/audio/$file"
  else
    ffmpeg -nostdin -y -loglevel error -i "$d/mix.wav" -ac 1 -c:a libmp3lame -b:a "$rate" -id3v2_version 3 -metadata title="$title" -metadata artist="Harbour Mind" "seed/audio/$file"
  fi
  printf '%-40s %-22s %6.1fs (rests %ss)\n' "$file" "$category" "$len" "$rest"
done 3< "$work/index.tsv"

echo "Done: $(ls seed/audio | wc -l) files, $(du -sh seed/audio | cut -f1)"
