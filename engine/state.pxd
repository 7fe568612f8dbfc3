# The compiled build's declarations for railbook.engine.state (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The state's dataclasses as native classes (``Context.state`` and everything it holds),
# and the key helpers every module calls as C functions.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython

cdef class Player
cdef class Share
cdef class Token
cdef class Ability
cdef class Corporation
cdef class Minor
cdef class Company
cdef class Train
cdef class HexState
cdef class StepState
cdef class RoundState
cdef class SequenceState
cdef class GameState

cdef class Player:
    cdef public object id
    cdef public object name
    cdef public object passed
    cdef public object bankrupt
    cdef public list companies

cdef class Share:
    cdef public object id
    cdef public object corp
    cdef public object index
    cdef public object percent
    cdef public object president
    cdef public object owner
    cdef public object buyable

cdef class Token:
    cdef public object price
    cdef public object used
    cdef public object hex
    cdef public object city
    cdef public object extra

cdef class Ability:
    cdef public object type
    cdef public dict spec
    cdef public object count
    cdef public object count_this_or
    cdef public object corp_count_this_or
    cdef public object used
    cdef public list laid_hexes

cdef class Corporation:
    cdef public object sym
    cdef public object cash
    cdef public list price
    cdef public list par
    cdef public object ipoed
    cdef public object floated
    cdef public object closed
    cdef public object removed
    cdef public object owner
    cdef public list tokens
    cdef public list trains
    cdef public list companies
    cdef public list abilities
    cdef public list assigned
    cdef public object operated

cdef class Minor:
    cdef public object sym
    cdef public object cash
    cdef public object owner
    cdef public object floated
    cdef public object closed
    cdef public list tokens
    cdef public list trains
    cdef public list assigned
    cdef public object operated

cdef class Company:
    cdef public object sym
    cdef public object value
    cdef public object revenue
    cdef public object owner
    cdef public object closed
    cdef public object removed
    cdef public object blank
    cdef public object discount
    cdef public object min_price
    cdef public object max_price
    cdef public list abilities

cdef class Train:
    cdef public object id
    cdef public object sym
    cdef public object name
    cdef public object index
    cdef public object owner
    cdef public object obsolete
    cdef public object rusted
    cdef public object operated
    cdef public object buyable
    cdef public object events_done

cdef class HexState:
    cdef public object tile
    cdef public object tile_id
    cdef public object rotation
    cdef public list tokens
    cdef public list reservations
    cdef public list icons
    cdef public list borders
    cdef public object cost_paid
    cdef public list assigned

cdef class StepState:
    cdef public object name
    cdef public object passed
    cdef public object acted
    cdef public dict data

cdef class RoundState:
    cdef public object kind
    cdef public object round_num
    cdef public list entities
    cdef public object entity_index
    cdef public list steps
    cdef public dict data

cdef class SequenceState:
    cdef public object section
    cdef public object entry
    cdef public object iteration
    cdef public object index
    cdef public object repeat

cdef class GameState:
    cdef public object title
    cdef public list options
    cdef public object seed
    cdef public list players
    cdef public list player_ids
    cdef public dict cash
    cdef public dict corporations
    cdef public dict minors
    cdef public dict companies
    cdef public dict shares
    cdef public dict holdings
    cdef public dict market
    cdef public dict trains
    cdef public list depot
    cdef public list discarded
    cdef public dict hexes
    cdef public dict tiles_out
    cdef public object phase
    cdef public object turn
    cdef public RoundState round
    cdef public object operating_rounds
    cdef public object cert_limit
    cdef public object bank_broken
    cdef public object finished
    cdef public object game_end_reason
    cdef public object final_turn
    cdef public object manually_ended
    cdef public object last_action_entity
    cdef public object last_action_type
    cdef public object actions_done
    cdef public list corp_order
    cdef public list log
    cdef public SequenceState sequence
    cdef public dict mechanics
    cdef public dict extra

cpdef object _hints(cls)
cpdef object to_json(obj)
cpdef object _optional(tp)
cpdef object _element(tp)
cpdef object _encode_expr(tp, src, depth)
@cython.locals(namespace=dict)
cpdef object _encoder(cls)
cpdef object from_json(cls, data)
@cython.locals(namespace=dict)
cpdef object _builders(cls)
cpdef object _decode_expr(tp, src, depth, namespace)
@cython.locals(namespace=dict)
cpdef object _decoder(cls)
cpdef object clone(GameState state)

cpdef str kind_of(str key)
@cython.locals(syms=dict)
cpdef str sym_of(str key)
cpdef str pkey(player_id)
cpdef str ckey(sym)
cpdef str mkey(sym)
cpdef str xkey(sym)
cdef str _key(dict table, str prefix, sym)
