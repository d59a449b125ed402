#!/usr/bin/env bash
# Generates the meditation timer's sounds (issue 20, item 1) into src/web/public/sounds/:
# three bells, each a struck fundamental with inharmonic partials that ring out (a bell's
# spectrum, not a tone generator's), and two ambient beds of shaped noise, like the bed under the
# demo catalogue's voices. They are free to use (the timer is free). The service worker precaches
# the bells (bells/), so the timer works offline, and keeps a bed (beds/) once it has played; the
# timer loops a bed with crossfades (noise joins cleanly).
#
#   bash scripts/generate-timer-sounds.sh
# Needs: apt-get install -y sox libsox-fmt-mp3 ffmpeg. The beds are random noise, so a rerun
# rewrites their bytes; the bells come out the same.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in sox ffmpeg; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Missing $tool. Install with: apt-get install -y sox libsox-fmt-mp3 ffmpeg" >&2
    exit 1
  fi
done

bells=src/web/public/sounds/bells
beds=src/web/public/sounds/beds
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$bells" "$beds"

# bell NAME SECONDS "FREQ:GAIN:DECAY ..." — each partial is a sine that starts at full strength
# and dies away exponentially (DECAY: seconds to fall by ~1/e); higher partials die sooner.
bell() {
  local name=$1 seconds=$2 partials=$3 inputs=() i=0
  for spec in $partials; do
    IFS=: read -r freq gain decay <<<"$spec"
    # sox's fade has no exponential curve; a chain of 'fade' would be linear. Instead the partial is
    # rendered, then shaped by an exponential envelope through ffmpeg's volume expression.
    sox -V1 -n -r 44100 -c 1 "$work/$name-$i-raw.wav" synth "$seconds" sine "$freq" vol "$gain"
    ffmpeg -nostdin -y -loglevel error -i "$work/$name-$i-raw.wav" -af "volume='exp(-t/$decay)':eval=frame" "$work/$name-$i.wav"
    inputs+=("$work/$name-$i.wav")
    i=$((i + 1))
  done
  # A 4 ms attack keeps the strike from clicking; the tail fades to silence before the file ends.
  sox -V1 -m "${inputs[@]}" "$work/$name.wav" fade q 0.004 "$seconds" 1.5 norm -3
  ffmpeg -nostdin -y -loglevel error -i "$work/$name.wav" -ac 1 -c:a libmp3lame -b:a 64k -id3v2_version 3 \
    -metadata title="$name" -metadata artist="Harbour Mind" "$bells/$name.mp3"
  printf '%-14s %5ss\n' "$name.mp3" "$seconds"
}

# A singing bowl: low, long, with the bowl's near-octave and beating partials.
bell singing-bowl 9 "220:0.5:4.5 222.5:0.25:4 597:0.22:2.6 1089:0.12:1.6 1702:0.06:0.9"
# A temple bell: a hum, a strike and a bright minor-third partial.
bell temple-bell 8 "174:0.35:3.5 348:0.45:3 417:0.25:2.2 696:0.15:1.4 1046:0.1:0.8 1390:0.05:0.5"
# A soft chime: high and short, for interval bells that should not startle.
bell soft-chime 5 "880:0.45:1.8 2406:0.18:0.9 4600:0.07:0.4"

# Beds: one minute of noise, looped by the timer with a crossfade.
sox -V1 -n -r 44100 -c 1 "$work/rain.wav" synth 60 pinknoise highpass 400 lowpass 6000 vol 0.25 norm -14
sox -V1 -n -r 44100 -c 1 "$work/ocean.wav" synth 60 brownnoise lowpass 900 tremolo 0.1 60 norm -14
for bed in rain ocean; do
  ffmpeg -nostdin -y -loglevel error -i "$work/$bed.wav" -ac 1 -c:a libmp3lame -b:a 32k -id3v2_version 3 \
    -metadata title="$bed" -metadata artist="Harbour Mind" "$beds/$bed.mp3"
  printf '%-14s %5ss\n' "$bed.mp3" 60
done

echo "Done: $(ls "$bells" "$beds" | grep -c mp3) files, $(du -shc "$bells" "$beds" | tail -1 | cut -f1)"
