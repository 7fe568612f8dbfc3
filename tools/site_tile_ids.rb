# frozen_string_literal: true

# usage: ruby tools/site_tile_ids.rb RECORD.json
# Prints {hex id: tile id} of the printed tiles the 18xx.games engine builds for a record's game (its ids
# name cities in place_token actions: "<tile id>-<city index>"). A development tool for tools/differential.py;
# needs the reference engine unpacked by ../shared/tools/reference/setup.sh.
require 'json'
require 'set'
require 'logger'

engine_dir = ENV.fetch('REFERENCE_DIR', '/tmp/reference-18xx')
reference = ENV.fetch('REFERENCE_TOOLS', File.expand_path('../../shared/tools/reference', __dir__))
reference = '/work/shared/tools/reference' unless File.exist?(File.join(reference, 'require_all.rb'))
$LOAD_PATH.unshift(reference)
require File.join(engine_dir, 'lib/engine')
Engine::Logger.set_level(Logger::FATAL)

data = JSON.parse(File.read(ARGV.fetch(0)))
game = Engine::Game.load(data.merge('actions' => []), strict: false, at_action: 0)
puts JSON.generate(game.hexes.to_h { |h| [h.id, h.tile.id] })
