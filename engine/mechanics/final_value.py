"""``final_value``: a player's result is cash + certificates at market price + privates at face value
(privates still owned; closed ones count nothing).  Corporation treasuries are ignored."""
