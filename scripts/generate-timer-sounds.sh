#!/usr/bin/env bash
# Generates the meditation timer's sounds (issue 20, item 1) and the player's background sounds
# (issue 37, item 3) into src/web/public/sounds/: three bells, each a struck fundamental with
# inharmonic partials that ring out (a bell's spectrum, not a tone generator's), and four ambient
# beds of shaped noise (rain, ocean, forest, brown noise), like the bed under the demo catalogue's
# voices. They are free to use (the timer is free). The service worker precaches the bells (bells/),
# so the timer works offline, and keeps a bed (beds/) once it has played. Each bed is a seamless
# loop: its last seconds already crossfade into its first, so the player can loop it sample to sample
# (an AudioBufferSourceNode with loop) and the timer can still chain copies with crossfades.
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

# Beds: one minute of noise that loops without a seam. Each is rendered 3 s longer than it lasts;
# its last 3 s, fading out, are laid over its first 3 s, fading in (quarter-sine fades: equal power
# for noise), and that overlap closes the file, so its end runs on into its start.
loop=3
seamless() {
  local name=$1
  sox -V1 "$work/$name-long.wav" "$work/$name-body.wav" trim "$loop" 57
  sox -V1 "$work/$name-long.wav" "$work/$name-tail.wav" trim 60 "$loop" fade q 0 "$loop" "$loop"
  sox -V1 "$work/$name-long.wav" "$work/$name-head.wav" trim 0 "$loop" fade q "$loop"
  sox -V1 -m "$work/$name-tail.wav" "$work/$name-head.wav" "$work/$name-joint.wav"
  sox -V1 "$work/$name-body.wav" "$work/$name-joint.wav" "$work/$name.wav" norm -14
}
long=$((60 + loop))
sox -V1 -n -r 44100 -c 1 "$work/rain-long.wav" synth "$long" pinknoise highpass 400 lowpass 6000 vol 0.25
sox -V1 -n -r 44100 -c 1 "$work/ocean-long.wav" synth "$long" brownnoise lowpass 900 tremolo 0.1 60
# Brown noise: the deep, even rumble people ask for by name (no swell, unlike the ocean).
sox -V1 -n -r 44100 -c 1 "$work/brown-noise-long.wav" synth "$long" brownnoise highpass 25 lowpass 2000
# Forest: wind in leaves (slowly breathing band-passed pink noise) and, now and then, a bird's
# two-note call, placed at fixed moments so every loop is the same minute.
sox -V1 -n -r 44100 -c 1 "$work/leaves.wav" synth "$long" pinknoise highpass 300 lowpass 3500 tremolo 0.07 50 vol 0.5
sox -V1 -n -r 44100 -c 1 "$work/note1.wav" synth 0.14 sine 3100-3900 fade q 0.01 0.14 0.06
sox -V1 -n -r 44100 -c 1 "$work/note2.wav" synth 0.2 sine 3700-2900 fade q 0.01 0.2 0.08
sox -V1 "$work/note1.wav" "$work/note2.wav" "$work/call.wav" pad 0 0.5 vol 0.12
calls=()
for at in 6.5 7.4 19 31.2 32 44.8 52.3; do
  sox -V1 "$work/call.wav" "$work/call-$at.wav" pad "$at" 0
  calls+=("$work/call-$at.wav")
done
sox -V1 -m "$work/leaves.wav" "${calls[@]}" "$work/forest-long.wav" trim 0 "$long"
for bed in rain ocean forest brown-noise; do
  seamless "$bed"
  ffmpeg -nostdin -y -loglevel error -i "$work/$bed.wav" -ac 1 -c:a libmp3lame -b:a 32k -id3v2_version 3 \
    -metadata title="$bed" -metadata artist="Harbour Mind" "$beds/$bed.mp3"
  printf '%-16s %5ss\n' "$bed.mp3" "$(soxi -D "$work/$bed.wav")"
done

echo "Done: $(ls "$bells" "$beds" | grep -c mp3) files, $(du -shc "$bells" "$beds" | tail -1 | cut -f1)"
