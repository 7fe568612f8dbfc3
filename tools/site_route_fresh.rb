# frozen_string_literal: true

# usage: ruby tools/site_route_fresh.rb RECORD.json ACTION_ID CORPORATION
# Replays a record in the 18xx.games engine (strict, as live play) through ACTION_ID and prints
# {"memo": ..., "fresh": ...}: whether the engine's route graph offers CORPORATION a route as it stands
# (its memo of an earlier route included) and whether a graph computed afresh does. A development tool for
# tools/differential.py; needs the reference engine unpacked by ../shared/tools/reference/setup.sh.
require_relative 'reference_engine'

data = JSON.parse(File.read(ARGV.fetch(0)))
game = Engine::Game.load(data, strict: true, at_action: Integer(ARGV.fetch(1)))
corporation = game.corporation_by_id(ARGV.fetch(2))
graph = game.graph_for_entity(corporation)
memo = graph.route_info(corporation)&.dig(:route_available) ? true : false
graph.clear_graph_for(corporation)
fresh = graph.route_info(corporation)&.dig(:route_available) ? true : false
puts JSON.generate('memo' => memo, 'fresh' => fresh)
