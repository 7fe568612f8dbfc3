# frozen_string_literal: true

# usage: ruby tools/site_tile_ids.rb RECORD.json
# Prints {hex id: tile id} of the printed tiles the 18xx.games engine builds for a record's game (its ids
# name cities in place_token actions: "<tile id>-<city index>"). A development tool for tools/differential.py;
# needs the reference engine unpacked by ../shared/tools/reference/setup.sh.
require_relative 'reference_engine'

data = JSON.parse(File.read(ARGV.fetch(0)))
game = Engine::Game.load(data.merge('actions' => []), strict: false, at_action: 0)
puts JSON.generate(game.hexes.to_h { |h| [h.id, h.tile.id] })
